package org.jpir.core.client;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import org.jpir.core.params.Gadget;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PlaintextCodec;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.AnswerSwitch;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.ClientQuery;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.Znx;

/**
 * The classic client: builds a query for a record index and decodes the answer to the record's
 * bytes; its queries need no uploaded key. The secret key never leaves it. Not thread-safe
 * (holds scratch).
 */
public final class PirClient implements PirQueryClient {
  private final Params p;
  private final Geometry geometry;
  private final SecretKey sk;
  private final SecureRandom random;
  private final GlweOps ops;
  private final PlaintextCodec codec;
  private PlanePacking.Key packing;
  private SecretKey[] answerSecrets;

  /**
   * A client of a database laid out as {@code geometry}, with secret key {@code sk}.
   *
   * @throws IllegalArgumentException when the key or geometry do not match, or for an insecure
   *     test preset without {@value Security#ALLOW_INSECURE_PROPERTY}
   */
  public PirClient(Params p, Geometry geometry, SecretKey sk, SecureRandom random) {
    Security.requireAllowed(p);
    if (sk.params() != p && !sk.params().equals(p)) {
      throw new IllegalArgumentException("secret key is for preset " + sk.params().id()
          + ", client uses " + p.id());
    }
    if (geometry.polyBytes() != p.bytesPerPolynomial()) {
      throw new IllegalArgumentException("geometry has " + geometry.polyBytes()
          + " bytes per polynomial, preset " + p.id() + " has " + p.bytesPerPolynomial());
    }
    this.p = p;
    this.geometry = geometry;
    this.sk = sk;
    this.random = random;
    this.ops = new GlweOps(p);
    this.codec = new PlaintextCodec(p);
  }

  @Override
  public Params params() {
    return p;
  }

  @Override
  public Geometry geometry() {
    return geometry;
  }

  /** False: classic queries carry their own GGSWs and need no evaluation keys. */
  @Override
  public boolean compact() {
    return false;
  }

  @Override
  public byte[] queryMessage(long index) {
    return Wire.writeQuery(query(index));
  }

  /** Empty: a classic client uploads no evaluation keys. */
  @Override
  public Optional<byte[]> evaluationKeysMessage() {
    return Optional.empty();
  }

  /** Refuses: evaluation keys exist only for compact presets. */
  @Override
  public void useEvaluationKeysMessage(byte[] evaluationKeys) {
    throw new IllegalArgumentException("evaluation keys exist only for compact presets; "
        + p.id() + " is classic");
  }

  /** Empty: a classic client uploads no plane-packing key. */
  @Override
  public Optional<byte[]> packingKeyMessage() {
    return Optional.empty();
  }

  /** A query for record {@code index}. */
  public ClientQuery query(long index) {
    Geometry.Cell target = geometry.cellOf(index);
    int n = p.n();
    int lg = p.ggswLevels();
    int perGlwe = p.glweLimbs() * n;
    int rows = geometry.rows();
    int cols = geometry.cols();
    byte[] seed = Prg.newSeed(random);
    Prg noise = Prg.fromSecureRandom(random);
    short[] b1 = new short[rows * p.plaintextLimbs() * perGlwe];
    long[] msg = new long[perGlwe];
    for (int r = 0; r < rows; r++) {
      for (int l = 0; l < p.plaintextLimbs(); l++) {
        // row (r, l) encrypts [r == target] 2^-phase1ScaleBits(l)
        Arrays.fill(msg, 0L);
        Gadget.addPowerOfTwo(msg, n, p.base2k(), p.phase1ScaleBits(l), 0,
            r == target.row() ? 1 : 0);
        ops.encryptSeeded(sk, msg, seed, ClientQuery.phase1Stream(p, r, l), noise)
            .copyBodyTo(b1, (r * p.plaintextLimbs() + l) * perGlwe);
      }
    }
    int levels = Geometry.levels(cols);
    short[] b2 = new short[levels * 2 * lg * perGlwe];
    for (int t = 0; t < levels; t++) {
      final int bit = t;
      ops.encryptSeededGgsw(sk, (target.column() >> t) & 1, seed,
          q -> ClientQuery.ggswStream(p, rows, bit, q), noise)
          .copyBodiesTo(b2, t * 2 * lg * perGlwe);
    }
    return new ClientQuery(p.id(), rows, cols, seed, b1, b2);
  }

  /**
   * This client's plane-packing key ({@link PlanePacking}) for its geometry's planes, made on
   * first use: its rows go to the server; its answer secrets, derived from the secret key, stay
   * here and decrypt shared-mask answers (also in a later process with the same key).
   *
   * @throws IllegalArgumentException when the geometry has one plane
   */
  public synchronized PlanePacking.Key packingKey() {
    if (packing == null) {
      packing = new PlanePacking(p, geometry.planes()).generate(sk, random);
    }
    return packing;
  }

  /** The secret plane {@code plane} of answer {@code a} decrypts under. */
  private synchronized SecretKey secretOf(Answer a, int plane) {
    if (!a.sharedA()) {
      return sk;
    }
    if (answerSecrets == null) {
      answerSecrets = new PlanePacking(p, a.planes()).answerSecrets(sk);
    }
    return answerSecrets[plane];
  }

  /** Checks that an answer is of this preset and this database's shape. */
  private void checkAnswer(Answer a) {
    if (!a.paramsId().equals(p.id())) {
      throw new IllegalArgumentException("answer is for preset '" + a.paramsId()
          + "', client uses '" + p.id() + "'");
    }
    int nb = AnswerSwitch.bCoefficients(p, geometry);
    if (a.planes() != geometry.planes() || a.n() != p.n() || a.bitsB() != p.answerBitsB()
        || a.bitsA() != p.answerBitsA()
        || (a.bCoefficients() != nb && a.bCoefficients() != p.n())) {
      throw new IllegalArgumentException("answer has " + a.planes() + " planes at N = " + a.n()
          + ", b of " + a.bCoefficients() + " coefficients x " + a.bitsB() + " bits, a of "
          + a.bitsA() + " bits; this database needs " + geometry.planes() + " planes at N = "
          + p.n() + ", b of " + nb + " (or " + p.n() + ") x " + p.answerBitsB() + ", a of "
          + p.answerBitsA());
    }
  }

  /** The phase of every plane of an answer, rounded to plaintextLimbs limbs. */
  private long[][] phases(Answer a) {
    checkAnswer(a);
    int n = p.n();
    long[][] out = new long[a.planes()][];
    for (int pl = 0; pl < a.planes(); pl++) {
      Glwe c = a.toGlwe(pl, p.base2k());
      long[] ph = new long[c.limbs() * n];
      ops.phase(secretOf(a, pl), c, ph);
      long[] rounded = new long[p.plaintextLimbs() * n];
      Znx.normalize(n, p.base2k(), ph, 0, c.limbs(), rounded, 0,
          p.plaintextLimbs(), new long[n]);
      out[pl] = rounded;
    }
    return out;
  }

  /** The bytes of record {@code index} from the answer to its query. */
  @Override
  public byte[] decode(Answer a, long index) {
    geometry.checkRecord(index);
    long[][] ph = phases(a);
    int polyBytes = codec.polynomialBytes();
    byte[] slot = new byte[Math.toIntExact(geometry.slotBytes())];
    for (int pl = 0; pl < ph.length; pl++) {
      codec.decode(ph[pl], slot, pl * polyBytes);
    }
    int off = geometry.offsetInSlot(index);
    return Arrays.copyOfRange(slot, off, off + geometry.recordSize());
  }

  /**
   * The measured noise of an answer whose plaintext is known (tests, calibration): the largest
   * |noise| over the coefficients that b carries, of all planes, given the expected plaintext
   * digits per plane.
   */
  public double measureNoise(Answer a, long[][] expectedDigits) {
    double max = 0;
    for (int pl = 0; pl < a.planes(); pl++) {
      double[] e = noise(a, pl, expectedDigits[pl]);
      for (int j = 0; j < a.bCoefficients(pl); j++) {
        max = Math.max(max, Math.abs(e[j]));
      }
    }
    return max;
  }

  /**
   * The noise of every coefficient of plane {@code plane} of an answer against the expected
   * plaintext digits (tests): meaningful for the first {@code a.bCoefficients(plane)} coefficients.
   */
  public double[] noise(Answer a, int plane, long[] expectedDigits) {
    checkAnswer(a);
    Glwe c = a.toGlwe(plane, p.base2k());
    long[] msg = new long[Math.max(c.limbs(), p.plaintextLimbs()) * p.n()];
    if (p.scaledPlaintext()) {
      Gadget.addPowerOfTwo(msg, p.n(), p.base2k(), p.plaintextBits(),
          Arrays.copyOf(expectedDigits, p.n()));
    } else {
      System.arraycopy(expectedDigits, 0, msg, 0, p.plaintextLimbs() * p.n());
    }
    return ops.noise(secretOf(a, plane), c, msg);
  }
}
