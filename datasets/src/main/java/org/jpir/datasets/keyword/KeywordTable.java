package org.jpir.datasets.keyword;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jpir.core.server.RecordSource;
import org.jpir.datasets.KeyValueSource;
import org.jpir.datasets.LengthPrefix;
import org.jpir.datasets.ValueTooLargeException;

/**
 * A keyword table: the entries of a {@link KeyValueSource} placed by cuckoo hashing (see {@link
 * KeywordParams} for the hash and the bucket format). As a {@link RecordSource}, record b is
 * bucket b, so a stored database of it answers one bucket per PIR retrieval.
 *
 * <p>Placement: each entry goes into one of its {@code choices} candidate buckets, found by a
 * random walk (evict a random occupant, re-place it, up to {@link #MAX_KICKS} moves); an entry
 * that finds no place after that goes to the stash (at most {@code stashCapacity} entries,
 * downloaded whole by every client with the manifest, so it costs no retrieval). If the stash
 * would overflow the table is rebuilt with the next seed (at most {@link #MAX_ATTEMPTS} seeds).
 * With 3 choices, 1 slot per bucket and load 0.85 (below the 0.918 threshold of 3-ary cuckoo
 * hashing) the stash is empty in our measurements (see KeywordTableTest); the overflow
 * probability is not proven here, it is measured.
 *
 * <p>Memory: 4 bytes per slot plus 4 x choices bytes per entry (candidate buckets) and a
 * duplicate-key check of about 50 bytes per entry; keys and values stay in the source.
 */
public final class KeywordTable implements RecordSource {
  /** Moves of one insertion's random walk before the entry goes to the stash. */
  public static final int MAX_KICKS = 500;
  /** Seeds tried before giving up. */
  public static final int MAX_ATTEMPTS = 8;

  private final KeywordParams params;
  private final KeyValueSource source;
  private final int[] slots; // slot (b * slotsPerBucket + s) -> entry index or -1
  private final boolean truncate;
  private final int maxValueLength;

  private KeywordTable(KeywordParams params, KeyValueSource source, int[] slots, boolean truncate,
      int maxValueLength) {
    this.params = params;
    this.source = source;
    this.slots = slots;
    this.truncate = truncate;
    this.maxValueLength = maxValueLength;
  }

  /** Options of {@link #build}. */
  public record Options(int choices, int slotsPerBucket, double load, int valueField,
      boolean truncate, long seed, int stashCapacity) {
    /** 3 choices, 1 slot per bucket, load 0.85, value field sized to the longest value. */
    public static Options defaults(long seed) {
      return new Options(3, 1, 0.85, 0, false, seed, 8);
    }

    public Options withValueField(int valueField, boolean truncate) {
      return new Options(choices, slotsPerBucket, load, valueField, truncate, seed, stashCapacity);
    }
  }

  /**
   * Builds the table of {@code source}. Keys must be non-empty, at most 255 bytes, and distinct
   * (a duplicate is an error naming both entries). {@code o.valueField() <= 0} sizes the value
   * field to the longest value; otherwise a longer value is an error naming its entry unless
   * {@code o.truncate()}.
   */
  public static KeywordTable build(KeyValueSource source, Options o) {
    long n = source.size();
    if (n < 1 || n > Integer.MAX_VALUE / 4) {
      throw new IllegalArgumentException("keyword table needs 1 .. " + Integer.MAX_VALUE / 4
          + " entries, got " + n);
    }
    if (o.load() <= 0 || o.load() > 1) {
      throw new IllegalArgumentException("load " + o.load() + " must be in (0, 1]");
    }
    int maxKey = 0;
    int maxValue = 0;
    Map<Long, Integer> seen = new HashMap<>((int) (n * 4 / 3) + 1);
    for (int i = 0; i < n; i++) {
      byte[] k = source.key(i);
      if (k.length == 0 || k.length > 255) {
        throw new IllegalArgumentException(source.describe(i) + ": key of " + k.length
            + " bytes; keys must be 1 to 255 bytes");
      }
      int vl = source.value(i).length;
      maxKey = Math.max(maxKey, k.length);
      maxValue = Math.max(maxValue, vl);
      long fp = fingerprint(k);
      Integer prev = seen.putIfAbsent(fp, i);
      if (prev != null && Arrays.equals(source.key(prev), k)) {
        throw new IllegalArgumentException("duplicate key '"
            + new String(k, StandardCharsets.UTF_8) + "' in " + source.describe(prev) + " and "
            + source.describe(i));
      }
      if (o.valueField() > 0 && vl > LengthPrefix.capacity(o.valueField()) && !o.truncate()) {
        throw new ValueTooLargeException(source.describe(i) + ": value of " + vl
            + " bytes does not fit the " + LengthPrefix.capacity(o.valueField()) + " bytes a "
            + o.valueField() + "-byte value field holds; raise the value size or choose "
            + "truncation explicitly");
      }
    }
    seen = null;
    int keyField = LengthPrefix.fieldSizeFor(maxKey);
    int valueField = o.valueField() > 0 ? o.valueField() : LengthPrefix.fieldSizeFor(maxValue);
    long capacitySlots = (long) Math.ceil(n / o.load());
    long perTable = Math.max(1, (capacitySlots + (long) o.choices() * o.slotsPerBucket() - 1)
        / ((long) o.choices() * o.slotsPerBucket()));
    int buckets = Math.toIntExact(perTable * o.choices());
    int[] cand = new int[(int) n * o.choices()];
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      long seed = o.seed() + attempt;
      for (int i = 0; i < n; i++) {
        int[] c = KeywordParams.candidates(source.key(i), seed, o.choices(), buckets);
        System.arraycopy(c, 0, cand, i * o.choices(), o.choices());
      }
      int[] slots = new int[Math.toIntExact((long) buckets * o.slotsPerBucket())];
      Arrays.fill(slots, -1);
      List<Integer> stash = place(slots, cand, (int) n, o, seed);
      if (stash != null) {
        List<byte[]> stashSlots = new ArrayList<>();
        KeywordParams tmp = new KeywordParams(o.choices(), buckets, o.slotsPerBucket(), keyField,
            valueField, seed, n, List.of());
        for (int e : stash) {
          byte[] s = new byte[tmp.slotBytes()];
          writeSlot(source, e, s, 0, keyField, valueField, o.truncate());
          stashSlots.add(s);
        }
        KeywordParams p = new KeywordParams(o.choices(), buckets, o.slotsPerBucket(), keyField,
            valueField, seed, n, stashSlots);
        return new KeywordTable(p, source, slots, o.truncate(), maxValue);
      }
    }
    throw new IllegalStateException("cuckoo placement of " + n + " entries into " + buckets
        + " buckets overflowed a stash of " + o.stashCapacity() + " with " + MAX_ATTEMPTS
        + " seeds; lower the load (now " + o.load() + ") or add slots per bucket");
  }

  /** Random-walk insertion; the stash's entries, or null when it overflows. */
  private static List<Integer> place(int[] slots, int[] cand, int n, Options o, long seed) {
    int k = o.choices();
    int s = o.slotsPerBucket();
    SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
    List<Integer> stash = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int cur = i;
      int lastBucket = -1;
      boolean placed = false;
      for (int kick = 0; kick <= MAX_KICKS && !placed; kick++) {
        for (int j = 0; j < k && !placed; j++) {
          int b = cand[cur * k + j];
          for (int t = 0; t < s; t++) {
            if (slots[b * s + t] < 0) {
              slots[b * s + t] = cur;
              placed = true;
              break;
            }
          }
        }
        if (!placed) {
          int b;
          do {
            b = cand[cur * k + rnd.nextInt(k)];
          } while (b == lastBucket && k > 1);
          int t = rnd.nextInt(s);
          int evicted = slots[b * s + t];
          slots[b * s + t] = cur;
          cur = evicted;
          lastBucket = b;
        }
      }
      if (!placed) {
        stash.add(cur);
        if (stash.size() > o.stashCapacity()) {
          return null;
        }
      }
    }
    return stash;
  }

  private static long fingerprint(byte[] k) {
    MessageDigest md = KeywordParams.sha256();
    byte[] d = md.digest(k);
    long v = 0;
    for (int b = 0; b < 8; b++) {
      v = (v << 8) | (d[b] & 0xFF);
    }
    return v;
  }

  private static void writeSlot(KeyValueSource src, int e, byte[] dst, int off, int keyField,
      int valueField, boolean truncate) {
    byte[] key = src.key(e);
    LengthPrefix.write(key, 0, key.length, dst, off, keyField, false, src.describe(e));
    byte[] v = src.value(e);
    String what = v.length > LengthPrefix.capacity(valueField) ? src.describe(e) : null;
    LengthPrefix.write(v, 0, v.length, dst, off + keyField, valueField, truncate, what);
  }

  public KeywordParams params() {
    return params;
  }

  /** Entries placed in the stash. */
  public int stashSize() {
    return params.stash().size();
  }

  /** Longest value in bytes. */
  public int maxValueLength() {
    return maxValueLength;
  }

  /** The bucket holding entry {@code e}'s slot, or -1 when it is in the stash (tests). */
  int bucketOf(int e) {
    for (int i = 0; i < slots.length; i++) {
      if (slots[i] == e) {
        return i / params.slotsPerBucket();
      }
    }
    return -1;
  }

  /** Raw entry bytes: the sum over entries of key length + value length. */
  public long rawEntryBytes() {
    long s = 0;
    for (long i = 0; i < source.size(); i++) {
      s += source.key(i).length + source.value(i).length;
    }
    return s;
  }

  /** Space overhead: bucket bytes (all buckets) / raw entry bytes. */
  public double spaceOverhead() {
    return (double) params.buckets() * params.bucketBytes() / rawEntryBytes();
  }

  @Override
  public long recordCount() {
    return params.buckets();
  }

  @Override
  public int recordSize() {
    return params.bucketBytes();
  }

  @Override
  public void read(long index, byte[] dst, int off) {
    if (index < 0 || index >= params.buckets()) {
      throw new IllegalArgumentException("bucket " + index + " out of range [0, "
          + params.buckets() + ")");
    }
    int s = params.slotsPerBucket();
    int sb = params.slotBytes();
    for (int t = 0; t < s; t++) {
      int e = slots[(int) index * s + t];
      if (e < 0) {
        Arrays.fill(dst, off + t * sb, off + (t + 1) * sb, (byte) 0);
      } else {
        writeSlot(source, e, dst, off + t * sb, params.keyField(), params.valueField(), truncate);
      }
    }
  }
}
