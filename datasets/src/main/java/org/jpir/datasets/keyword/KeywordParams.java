package org.jpir.datasets.keyword;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.jpir.datasets.LengthPrefix;

/**
 * Public parameters of a keyword table (cuckoo hashing with {@code choices} hash functions over
 * {@code buckets} buckets of {@code slotsPerBucket} slots, plus a small stash). Everything here is
 * public: clients download it with the manifest.
 *
 * <p>Hash: {@code d = SHA-256("jpir-cuckoo-v1" || seed as 8 bytes big-endian || key)}; word j is
 * {@code d[8j .. 8j+8)} big-endian, and the table is split into {@code choices} equal parts of
 * {@code P = buckets / choices} buckets, so candidate j is {@code j*P + floor(word_j * P / 2^64)}
 * (distinct candidates by construction).
 *
 * <p>Bucket format (one PIR record of {@link #bucketBytes()} bytes): {@code slotsPerBucket}
 * slots, slot s at byte {@code s * (keyField + valueField)}; a slot is the key as a
 * length-prefixed field of {@code keyField} bytes ({@link LengthPrefix}; length 0 = empty slot,
 * keys are non-empty) followed by the value as a length-prefixed field of {@code valueField}
 * bytes. Stash slots have the same format and are stored hex-encoded in the manifest.
 */
public record KeywordParams(int choices, int buckets, int slotsPerBucket, int keyField,
    int valueField, long seed, long entries, List<byte[]> stash) {

  static final byte[] DOMAIN = "jpir-cuckoo-v1".getBytes(StandardCharsets.US_ASCII);

  public KeywordParams {
    if (choices < 2 || choices > 4) {
      throw new IllegalArgumentException("choices " + choices + " must be in [2, 4]");
    }
    if (buckets < choices || buckets % choices != 0) {
      throw new IllegalArgumentException("buckets " + buckets + " must be a positive multiple of "
          + "choices " + choices);
    }
    if (slotsPerBucket < 1) {
      throw new IllegalArgumentException("slots per bucket " + slotsPerBucket + " must be >= 1");
    }
    if (keyField < 2 || keyField > 256 || valueField < 2) {
      throw new IllegalArgumentException("key field " + keyField + " must be in [2, 256] and "
          + "value field " + valueField + " at least 2");
    }
    stash = List.copyOf(stash);
  }

  /** Bytes per slot. */
  public int slotBytes() {
    return keyField + valueField;
  }

  /** Bytes per bucket: the PIR record size. */
  public int bucketBytes() {
    return slotsPerBucket * slotBytes();
  }

  /** PIR retrievals per lookup: always {@code choices}, whether or not the key is present. */
  public int retrievalsPerLookup() {
    return choices;
  }

  /** The candidate buckets of {@code key}, in order of the hash functions. */
  public int[] candidates(byte[] key) {
    return candidates(key, seed, choices, buckets);
  }

  static int[] candidates(byte[] key, long seed, int choices, int buckets) {
    MessageDigest md = sha256();
    md.update(DOMAIN);
    for (int i = 7; i >= 0; i--) {
      md.update((byte) (seed >>> (8 * i)));
    }
    byte[] d = md.digest(key);
    long per = buckets / choices;
    int[] out = new int[choices];
    for (int j = 0; j < choices; j++) {
      long w = 0;
      for (int b = 0; b < 8; b++) {
        w = (w << 8) | (d[8 * j + b] & 0xFF);
      }
      out[j] = (int) (j * per + (Math.multiplyHigh(w, per) + ((w >> 63) & per)));
    }
    return out;
  }

  private static final ThreadLocal<MessageDigest> SHA = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  });

  static MessageDigest sha256() {
    MessageDigest md = SHA.get();
    md.reset();
    return md;
  }

  /**
   * Looks {@code key} up in its retrieved buckets ({@code buckets[j]} is candidate j's record, as
   * decoded from PIR) and the stash: the value, or empty when the key is absent.
   */
  public Optional<byte[]> find(byte[] key, byte[][] retrieved) {
    if (retrieved.length != choices) {
      throw new IllegalArgumentException("expected " + choices + " buckets, got "
          + retrieved.length);
    }
    for (byte[] b : retrieved) {
      if (b.length < bucketBytes()) {
        throw new IllegalArgumentException("bucket of " + b.length + " bytes, expected "
            + bucketBytes());
      }
      for (int s = 0; s < slotsPerBucket; s++) {
        Optional<byte[]> v = matchSlot(key, b, s * slotBytes());
        if (v.isPresent()) {
          return v;
        }
      }
    }
    for (byte[] slot : stash) {
      Optional<byte[]> v = matchSlot(key, slot, 0);
      if (v.isPresent()) {
        return v;
      }
    }
    return Optional.empty();
  }

  /**
   * A whole lookup: retrieves each of the key's {@link #retrievalsPerLookup()} candidate buckets
   * with {@code retrieveBucket} (one PIR retrieval each, all of them even after a hit, so the
   * server sees the same number of queries for every key) and searches them and the stash.
   */
  public Optional<byte[]> lookup(byte[] key, LongFunction<byte[]> retrieveBucket) {
    int[] c = candidates(key);
    byte[][] r = new byte[c.length][];
    for (int j = 0; j < c.length; j++) {
      r[j] = retrieveBucket.apply(c[j]);
    }
    return find(key, r);
  }

  private Optional<byte[]> matchSlot(byte[] key, byte[] b, int off) {
    int len = LengthPrefix.length(b, off, keyField);
    if (len != key.length || len == 0) {
      return Optional.empty();
    }
    int w = LengthPrefix.prefixBytes(keyField);
    if (!Arrays.equals(b, off + w, off + w + len, key, 0, len)) {
      return Optional.empty();
    }
    return Optional.of(LengthPrefix.read(b, off + keyField, valueField));
  }

  /** Manifest lines ({@code keyword.*}). */
  public Map<String, String> toManifest() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("keyword.scheme", "cuckoo");
    m.put("keyword.hash", "sha256-partitioned-v1");
    m.put("keyword.choices", Integer.toString(choices));
    m.put("keyword.buckets", Integer.toString(buckets));
    m.put("keyword.slotsPerBucket", Integer.toString(slotsPerBucket));
    m.put("keyword.keyField", Integer.toString(keyField));
    m.put("keyword.valueField", Integer.toString(valueField));
    m.put("keyword.seed", Long.toString(seed));
    m.put("keyword.entries", Long.toString(entries));
    HexFormat hex = HexFormat.of();
    StringBuilder s = new StringBuilder();
    for (byte[] slot : stash) {
      if (s.length() > 0) {
        s.append(',');
      }
      s.append(hex.formatHex(slot));
    }
    m.put("keyword.stash", s.toString());
    return m;
  }

  /** Parses the {@code keyword.*} manifest lines; empty when the database is not a keyword one. */
  public static Optional<KeywordParams> fromManifest(Map<String, String> m) {
    if (!m.containsKey("keyword.scheme")) {
      return Optional.empty();
    }
    if (!"cuckoo".equals(m.get("keyword.scheme"))
        || !"sha256-partitioned-v1".equals(m.get("keyword.hash"))) {
      throw new IllegalArgumentException("unsupported keyword scheme " + m.get("keyword.scheme")
          + " / hash " + m.get("keyword.hash"));
    }
    List<byte[]> stash = new ArrayList<>();
    String st = m.getOrDefault("keyword.stash", "");
    if (!st.isEmpty()) {
      for (String h : st.split(",")) {
        stash.add(HexFormat.of().parseHex(h));
      }
    }
    return Optional.of(new KeywordParams(Integer.parseInt(m.get("keyword.choices")),
        Integer.parseInt(m.get("keyword.buckets")), Integer.parseInt(m.get("keyword.slotsPerBucket")),
        Integer.parseInt(m.get("keyword.keyField")), Integer.parseInt(m.get("keyword.valueField")),
        Long.parseLong(m.get("keyword.seed")), Long.parseLong(m.get("keyword.entries")), stash));
  }
}
