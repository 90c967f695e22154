package org.jpir.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import org.jpir.core.client.CompactClient;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.server.PirServer;

/**
 * Hostile input for every wire decoder: 100 000 mutated, truncated and extended messages each
 * (bit flips, byte writes, 16- and 32-bit field overwrites with extreme values, truncation,
 * extension, insertion, deletion; three quarters with the CRC recomputed so the mutation reaches
 * the field checks). Every one must decode to a valid message (which re-encodes to the same
 * bytes) or end in {@link Wire.WireException}; anything else, an {@code OutOfMemoryError} above
 * all, fails. Runs in the surefire execution {@code fuzz-small-heap} (-Xmx256m). Messages are of
 * N = 16 presets so that a try costs microseconds; the size checks do not depend on N, and the
 * examples below send production-size declarations.
 */
class WireFuzzTest {
  static final int TRIES = 100_000;
  static final SecureRandom RANDOM = new SecureRandom();
  static final Params P = new Params("fuzz-insecure-16", 16, 16, 56, 4, 6, 5, 5, 3.2, 0);
  static final CompactParams CP = new CompactParams(
      new Params("fuzz-insecure-16-compact", 16, 16, 40, 3, 5, 4, 4, 3.2, 0),
      new Params("fuzz-insecure-16-compact-keys", 16, 16, 40, 3, 7, 6, 7,
          CompactParams.KEY_SIGMA, 0), 6).withRounding(81, 103);
  /** 2 rows x 3 columns (two CMux levels). */
  static final Geometry G = Geometry.of(P, 6, 100, 2);
  static final Geometry CG = Geometry.of(CP.server(), 16, 80, 4);

  static final SecretKey SK = SecretKey.generate(P, RANDOM);
  static final byte[] SECRET_KEY = Wire.writeSecretKey(SK);
  static final byte[] QUERY = Wire.writeQuery(new PirClient(P, G, SK, RANDOM).query(4), P);
  static final byte[] ANSWER;
  static final byte[] EVALUATION_KEYS;
  static final byte[] COMPACT_QUERY;
  /** 2 planes (records of 200 bytes in polynomials of 112): the last plane's b of 13. */
  static final Geometry G2 = Geometry.of(P, 6, 200, 2);
  static final byte[] SHARED_ANSWER;
  static final byte[] PACKING_KEY;

  static {
    ANSWER = Wire.writeAnswer(WireTest.randomAnswer(P, 1, P.n()), P);
    CompactClient cc = new CompactClient(CP, CG, CompactClient.generateSecret(CP, RANDOM),
        "fuzz-client", RANDOM);
    EVALUATION_KEYS = Wire.writeEvaluationKeys(cc.evaluationKeys(), CP);
    COMPACT_QUERY = Wire.writeCompactQuery(cc.query(9), CP);
    PlanePacking pk = new PlanePacking(P, 2);
    PlanePacking.Upload u = pk.generate(SK, RANDOM).upload();
    PACKING_KEY = Wire.writePackingKey(P, u);
    Glwe[] roots = {new Glwe(P.n(), P.glweLimbs()), new Glwe(P.n(), P.glweLimbs())};
    SHARED_ANSWER = Wire.writeAnswer(new PirServer(P).toSharedAnswer(roots, G2, pk.prepare(u)),
        P);
  }

  /** One edit of a message; positions and lengths are reduced modulo the message's size. */
  record Edit(int kind, int pos, int value, int length) {}

  /** A mutation: up to four edits, then the CRC recomputed or not. */
  record Mutation(List<Edit> edits, boolean fixCrc, boolean nearFields) {}

  static final int[] INTERESTING = {0, 1, -1, 2, 3, 4, 16, 255, 256, 0x7FFF, 0x8000, 0xFFFF,
      0x10000, 1 << 20, 10922, 1 << 26, 100_663_296, 1 << 30, (1 << 30) + 1, 1_073_545_216,
      Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1, -2};

  @Provide
  Arbitrary<Mutation> mutations() {
    Arbitrary<Edit> edit = Combinators.combine(Arbitraries.integers().between(0, 8),
        Arbitraries.integers(), Arbitraries.oneOf(Arbitraries.of(
            Arrays.stream(INTERESTING).boxed().toList()), Arbitraries.integers()),
        Arbitraries.integers().between(0, 80)).as(Edit::new);
    return Combinators.combine(edit.list().ofMinSize(1).ofMaxSize(4),
        Arbitraries.integers().between(0, 3).map(i -> i != 0),
        Arbitraries.of(true, false)).as(Mutation::new);
  }

  /** Offsets of the length and count fields of a well-formed message (where edits hurt most). */
  static int[] fieldOffsets(byte[] msg) {
    int h = 9 + (((msg[7] & 0xFF) << 8) | (msg[8] & 0xFF)) + ParameterRevision.BYTES;
    List<Integer> out = new ArrayList<>(List.of(0, 4, 6, 7, h - ParameterRevision.BYTES));
    int type = msg[6];
    int pos = h;
    switch (type) {
      case Wire.TYPE_SECRET_KEY:
        out.add(h);
        break;
      case Wire.TYPE_QUERY:
        out.addAll(List.of(h, h + 4));
        pos = h + 8 + Prg.SEED_BYTES;
        pos = addArrays(out, msg, pos, 2);
        break;
      case Wire.TYPE_ANSWER:
      case Wire.TYPE_SHARED_ANSWER:
        out.addAll(List.of(h, h + 4, h + 8, h + 9, h + 10));
        break;
      case Wire.TYPE_PACKING_KEY:
        out.addAll(List.of(h, h + 1 + Prg.SEED_BYTES));
        break;
      case Wire.TYPE_EVALUATION_KEYS: {
        out.add(h);
        int cl = ((msg[h] & 0xFF) << 8) | (msg[h + 1] & 0xFF);
        out.add(h + 2 + cl + Prg.SEED_BYTES);
        addPackedArrays(out, msg, h + 2 + cl + Prg.SEED_BYTES + 1, 2, CP.keyBits());
        break;
      }
      default: {
        out.add(h);
        int cl = ((msg[h] & 0xFF) << 8) | (msg[h + 1] & 0xFF);
        int r = h + 2 + cl + 8;
        out.addAll(List.of(r, r + 4));
        out.add(r + 8 + Prg.SEED_BYTES);
        addPackedArrays(out, msg, r + 8 + Prg.SEED_BYTES + 1, 2, CP.queryBits());
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int addArrays(List<Integer> out, byte[] msg, int pos, int count) {
    for (int i = 0; i < count; i++) {
      out.add(pos);
      int len = ((msg[pos] & 0xFF) << 24) | ((msg[pos + 1] & 0xFF) << 16)
          | ((msg[pos + 2] & 0xFF) << 8) | (msg[pos + 3] & 0xFF);
      pos += 4 + 2 * len;
    }
    return pos;
  }

  /** As addArrays for bit-packed b parts of {@code bits} bits per coefficient (7 key limbs). */
  private static int addPackedArrays(List<Integer> out, byte[] msg, int pos, int count,
      int bits) {
    for (int i = 0; i < count; i++) {
      out.add(pos);
      int len = ((msg[pos] & 0xFF) << 24) | ((msg[pos + 1] & 0xFF) << 16)
          | ((msg[pos + 2] & 0xFF) << 8) | (msg[pos + 3] & 0xFF);
      pos += 4 + (int) BPacking.bytes(len / CP.keys().glweLimbs(), bits);
    }
    return pos;
  }

  static byte[] mutate(byte[] original, Mutation m) {
    int[] fields = fieldOffsets(original);
    byte[] b = original.clone();
    for (Edit e : m.edits()) {
      int len = b.length;
      int pos = len == 0 ? 0 : Math.floorMod(e.pos(), len);
      if (m.nearFields() && len > 0) {
        pos = Math.min(len - 1, fields[Math.floorMod(e.pos(), fields.length)]
            + Math.floorMod(e.pos() >> 8, 4));
      }
      switch (e.kind()) {
        case 0: // flip a bit
          if (len > 0) {
            b[pos] ^= (byte) (1 << Math.floorMod(e.value(), 8));
          }
          break;
        case 1: // write a byte
          if (len > 0) {
            b[pos] = (byte) e.value();
          }
          break;
        case 2: // overwrite a big-endian int
          for (int i = 0; i < 4 && pos + i < len; i++) {
            b[pos + i] = (byte) (e.value() >>> (24 - 8 * i));
          }
          break;
        case 3: // overwrite a big-endian short
          for (int i = 0; i < 2 && pos + i < len; i++) {
            b[pos + i] = (byte) (e.value() >>> (8 - 8 * i));
          }
          break;
        case 4: // truncate
          b = Arrays.copyOf(b, len == 0 ? 0 : Math.floorMod(e.value(), len));
          break;
        case 5: { // extend
          byte[] x = Arrays.copyOf(b, len + e.length() + 1);
          for (int i = len; i < x.length; i++) {
            x[i] = (byte) (e.value() * (i + 1));
          }
          b = x;
          break;
        }
        case 6: { // delete a range
          int k = Math.min(e.length() + 1, len - pos);
          byte[] x = new byte[len - k];
          System.arraycopy(b, 0, x, 0, pos);
          System.arraycopy(b, pos + k, x, pos, len - pos - k);
          b = x;
          break;
        }
        case 7: { // insert bytes
          int k = e.length() + 1;
          byte[] x = new byte[len + k];
          System.arraycopy(b, 0, x, 0, pos);
          for (int i = 0; i < k; i++) {
            x[pos + i] = (byte) (e.value() >>> (8 * (i % 4)));
          }
          System.arraycopy(b, pos, x, pos + k, len - pos);
          b = x;
          break;
        }
        default: // swap in another message's header (type confusion)
          byte[][] others = {SECRET_KEY, QUERY, ANSWER, EVALUATION_KEYS, COMPACT_QUERY};
          byte[] o = others[Math.floorMod(e.value(), others.length)];
          System.arraycopy(o, 0, b, 0, Math.min(Math.min(o.length, b.length), 7));
      }
    }
    if (m.fixCrc() && b.length >= 4) {
      Wire.sealChecksum(b);
    }
    return b;
  }

  /** Outcomes per decoder: "decoded" or the refusal's message up to its first digit or quote. */
  static final Map<String, Map<String, Long>> OUTCOMES = new ConcurrentHashMap<>();

  static void count(String decoder, String outcome) {
    OUTCOMES.computeIfAbsent(decoder, k -> new ConcurrentHashMap<>()).merge(outcome, 1L,
        Long::sum);
  }

  static String kind(String message) {
    int end = message.length();
    for (int i = 0; i < message.length(); i++) {
      char c = message.charAt(i);
      if (Character.isDigit(c) || c == '\'' || c == '(') {
        end = i;
        break;
      }
    }
    return message.substring(0, Math.min(end, 60)).trim();
  }

  /** Decodes; a decoded message must re-encode to exactly its bytes. */
  static void decodeOrRefuse(String decoder, byte[] msg,
      Function<byte[], byte[]> decodeAndReencode) {
    try {
      byte[] back = decodeAndReencode.apply(msg);
      assertArrayEquals(msg, back, "a decoded message re-encodes to its own bytes");
      count(decoder, "decoded");
    } catch (Wire.WireException e) {
      assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
      count(decoder, kind(e.getMessage()));
    }
  }

  @AfterContainer
  static void printOutcomes() {
    OUTCOMES.forEach((decoder, m) -> {
      long total = m.values().stream().mapToLong(Long::longValue).sum();
      System.out.println("fuzz " + decoder + ": " + total + " inputs, " + m.size()
          + " distinct outcomes, decoded " + m.getOrDefault("decoded", 0L));
      m.entrySet().stream().sorted(Map.Entry.comparingByValue(Comparator.reverseOrder()))
          .forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
    });
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void secretKeyDecoder(@ForAll("mutations") Mutation m) {
    decodeOrRefuse("secret key", mutate(SECRET_KEY, m),
        b -> Wire.writeSecretKey(Wire.readSecretKey(b, P)));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void queryDecoder(@ForAll("mutations") Mutation m) {
    byte[] b = mutate(QUERY, m);
    decodeOrRefuse("query", b, x -> Wire.writeQuery(Wire.readQuery(x, P), P));
    decodeOrRefuse("query+geometry", b,
        x -> Wire.writeQuery(Wire.readQuery(x, P, G), P));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void answerDecoder(@ForAll("mutations") Mutation m) {
    byte[] b = mutate(ANSWER, m);
    decodeOrRefuse("answer", b, x -> Wire.writeAnswer(Wire.readAnswer(x, P), P));
    decodeOrRefuse("answer+geometry", b,
        x -> Wire.writeAnswer(Wire.readAnswer(x, P, G), P));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void sharedAnswerDecoder(@ForAll("mutations") Mutation m) {
    byte[] b = mutate(SHARED_ANSWER, m);
    decodeOrRefuse("shared answer", b, x -> Wire.writeAnswer(Wire.readAnswer(x, P), P));
    decodeOrRefuse("shared answer+geometry", b,
        x -> Wire.writeAnswer(Wire.readAnswer(x, P, G2), P));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void packingKeyDecoder(@ForAll("mutations") Mutation m) {
    decodeOrRefuse("packing key", mutate(PACKING_KEY, m),
        b -> Wire.writePackingKey(P, Wire.readPackingKey(b, P, G2)));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void evaluationKeysDecoder(@ForAll("mutations") Mutation m) {
    decodeOrRefuse("evaluation keys", mutate(EVALUATION_KEYS, m),
        b -> Wire.writeEvaluationKeys(Wire.readEvaluationKeys(b, CP), CP));
  }

  @Property(tries = TRIES, shrinking = ShrinkingMode.OFF, generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  void compactQueryDecoder(@ForAll("mutations") Mutation m) {
    byte[] b = mutate(COMPACT_QUERY, m);
    decodeOrRefuse("compact query", b,
        x -> Wire.writeCompactQuery(Wire.readCompactQuery(x, CP), CP));
    decodeOrRefuse("compact query+geometry", b,
        x -> Wire.writeCompactQuery(Wire.readCompactQuery(x, CP, CG), CP));
  }

  // ---- production-size declarations in small messages (this JVM has a 256 MiB heap) ----------

  static byte[] ints(int... v) {
    byte[] b = new byte[4 * v.length];
    for (int i = 0; i < v.length; i++) {
      for (int j = 0; j < 4; j++) {
        b[4 * i + j] = (byte) (v[i] >>> (24 - 8 * j));
      }
    }
    return b;
  }

  static byte[] concat(byte[]... parts) {
    int len = 0;
    for (byte[] p : parts) {
      len += p.length;
    }
    byte[] out = new byte[len];
    int o = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, o, p.length);
      o += p.length;
    }
    return out;
  }

  @Example
  void an82ByteQueryDeclaringTwoToTheThirtyElementsIsRefusedWithoutAllocating() {
    Params p = Presets.ONIONPIR_4096;
    // rows = 10922: 10922 * 4 * 6 * 4096 = 1 073 545 216 digits (2 GiB) in the phase-1 length
    byte[] q = Wire.forge(Wire.TYPE_QUERY, p.id(), ParameterRevision.of(p),
        concat(ints(10922, 1),
        new byte[Prg.SEED_BYTES], ints(1_073_545_216)));
    assertEquals(82, q.length);
    Wire.WireException e = assertThrows(Wire.WireException.class, () -> Wire.readQuery(q, p));
    assertTrue(e.getMessage().contains("rows in [1, 1024]"), e.getMessage());
    // within the rows the preset allows, the declared length is refused for the bytes present
    byte[] q2 = Wire.forge(Wire.TYPE_QUERY, p.id(), ParameterRevision.of(p),
        concat(ints(1024, 1),
        new byte[Prg.SEED_BYTES], ints(1024 * 4 * 6 * 4096)));
    e = assertThrows(Wire.WireException.class, () -> Wire.readQuery(q2, p));
    assertTrue(e.getMessage().contains("truncated query: phase-1 part needs 201326592 bytes, 0"
        + " present"), e.getMessage());
    // and against the database's geometry when the reader knows it
    Geometry g = Geometry.of(p, 1000, 1000, 16);
    e = assertThrows(Wire.WireException.class, () -> Wire.readQuery(q2, p, g));
    assertTrue(e.getMessage().contains("the database has " + g.rows() + " x " + g.cols()),
        e.getMessage());
  }

  @Example
  void productionSizeDeclarationsOfEveryMessageAreRefusedByName() {
    Params p = Presets.ONIONPIR_4096;
    CompactParams cp = CompactParams.ONIONPIR_4096_COMPACT;
    byte[] answer = Wire.forge(Wire.TYPE_ANSWER, p.id(), ParameterRevision.of(p),
        concat(ints(1 << 20, 1 << 30),
        new byte[] {(byte) p.answerBitsB(), (byte) p.answerBitsA()}, ints(p.n())));
    Wire.WireException e = assertThrows(Wire.WireException.class, () -> Wire.readAnswer(answer,
        p));
    assertTrue(e.getMessage().contains("N = 1073741824"), e.getMessage());
    byte[] answer2 = Wire.forge(Wire.TYPE_ANSWER, p.id(), ParameterRevision.of(p),
        concat(ints(1 << 30, p.n()),
        new byte[] {(byte) p.answerBitsB(), (byte) p.answerBitsA()}, ints(p.n())));
    e = assertThrows(Wire.WireException.class, () -> Wire.readAnswer(answer2, p));
    assertTrue(e.getMessage().contains("truncated answer: data needs"), e.getMessage());
    byte[] sk = Wire.forge(Wire.TYPE_SECRET_KEY, p.id(), ParameterRevision.of(p),
        ints(Integer.MAX_VALUE));
    e = assertThrows(Wire.WireException.class, () -> Wire.readSecretKey(sk, p));
    assertTrue(e.getMessage().contains("2147483647 coefficients, expected 4096"),
        e.getMessage());
    byte[] client = {0, 5, 'a', 'l', 'i', 'c', 'e'};
    long per = (long) cp.keys().glweLimbs() * cp.keys().n();
    byte[] evk = Wire.forge(Wire.TYPE_EVALUATION_KEYS, cp.id(), ParameterRevision.of(cp),
        concat(client,
        new byte[Prg.SEED_BYTES], new byte[] {(byte) cp.keyBits()},
        ints((int) (cp.automorphisms() * cp.ksLevels() * per))));
    e = assertThrows(Wire.WireException.class, () -> Wire.readEvaluationKeys(evk, cp));
    assertTrue(e.getMessage().contains("truncated evaluation keys: key-switching part needs"),
        e.getMessage());
    byte[] longId = Wire.forge(Wire.TYPE_EVALUATION_KEYS, cp.id(), ParameterRevision.of(cp),
        new byte[] {(byte) 0xFF,
        (byte) 0xFF, 'x'});
    e = assertThrows(Wire.WireException.class, () -> Wire.readEvaluationKeys(longId, cp));
    assertTrue(e.getMessage().contains("client id of 65535 bytes, at most 64"), e.getMessage());
    byte[] cq = Wire.forge(Wire.TYPE_COMPACT_QUERY, cp.id(), ParameterRevision.of(cp),
        concat(client, new byte[8],
        ints(1 << 30, 1 << 30)));
    e = assertThrows(Wire.WireException.class, () -> Wire.readCompactQuery(cq, cp));
    assertTrue(e.getMessage().contains("compact query geometry 1073741824 x 1073741824 is"
        + " invalid"), e.getMessage());
  }

  @Example
  void theFuzzedMessagesAreWellFormedToStartWith() {
    Wire.readSecretKey(SECRET_KEY, P);
    Wire.readQuery(QUERY, P, G);
    Wire.readAnswer(ANSWER, P, G);
    Wire.readEvaluationKeys(EVALUATION_KEYS, CP);
    Wire.readCompactQuery(COMPACT_QUERY, CP, CG);
    assertTrue(Wire.readAnswer(SHARED_ANSWER, P, G2).sharedA());
    assertEquals(2, Wire.readPackingKey(PACKING_KEY, P, G2).planes());
    assertEquals(2, G2.planes());
    assertEquals(Wire.sharedAnswerBytes(P, 2, AnswerSwitch.bCoefficients(P, G2)),
        SHARED_ANSWER.length);
    assertEquals(Wire.packingKeyBytes(P, 2), PACKING_KEY.length);
    assertEquals(2, Geometry.levels(G.cols()));
    assertTrue(Geometry.levels(CG.cols()) > 0, "the compact query has a phase-2 part");
    // the largest-message bounds are exact for fixed-size messages
    assertEquals(Wire.maxSecretKeyBytes(P), SECRET_KEY.length);
    assertEquals(Wire.maxQueryBytes(P, G), QUERY.length);
    assertEquals(Wire.maxAnswerBytes(P, G), ANSWER.length);
    assertEquals(Wire.maxEvaluationKeysBytes(CP) - (64 - "fuzz-client".length()),
        EVALUATION_KEYS.length);
    assertEquals(Wire.maxCompactQueryBytes(CP, CG) - (64 - "fuzz-client".length()),
        COMPACT_QUERY.length);
  }
}
