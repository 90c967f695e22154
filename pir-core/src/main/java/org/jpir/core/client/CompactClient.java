package org.jpir.core.client;

import java.security.SecureRandom;
import java.util.Optional;
import org.jpir.core.lwe.BPacking;
import org.jpir.core.params.Gadget;
import org.jpir.core.lwe.GlweOps;
import org.jpir.core.lwe.PlanePacking;
import org.jpir.core.lwe.Prg;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Security;
import org.jpir.core.wire.Answer;
import org.jpir.core.wire.CompactQuery;
import org.jpir.core.wire.EvaluationKeys;
import org.jpir.core.wire.Wire;
import org.jpir.vmp.Znx;

/**
 * The client of the compact scheme: generates its evaluation keys (once, uploaded to the server
 * under its client id), builds compact queries (two packed GLWEs, or one where {@link CompactParams#layout} packs them) and decodes answers. The b
 * parts of queries and keys are rounded to {@code cp.queryBits()} / {@code cp.keyBits()} bits
 * ({@link BPacking}). The secret key never leaves it. Not thread-safe.
 */
public final class CompactClient implements PirQueryClient {
  private final CompactParams cp;
  private final Geometry geometry;
  private final SecretKey sk;
  private final String clientId;
  private final SecureRandom random;
  private final GlweOps kops;
  private final PirClient decoder;
  private EvaluationKeys keys;

  /**
   * A client with secret {@code sk} (made for {@code cp.keys()} by {@link #generateSecret}), for
   * a database laid out as {@code geometry} at {@code cp.server()}.
   */
  public CompactClient(CompactParams cp, Geometry geometry, SecretKey sk, String clientId,
      SecureRandom random) {
    Security.requireAllowed(cp.server());
    if (!sk.params().equals(cp.keys())) {
      throw new IllegalArgumentException("secret key is for preset " + sk.params().id()
          + ", compact client needs " + cp.keys().id());
    }
    cp.checkGeometry(geometry.rows(), geometry.cols());
    this.cp = cp;
    this.geometry = geometry;
    this.sk = sk;
    this.clientId = EvaluationKeys.checkClientId(clientId);
    this.random = random;
    this.kops = new GlweOps(cp.keys());
    this.decoder = new PirClient(cp.server(), geometry,
        new SecretKey(cp.server(), sk.coefficients()), random);
  }

  /** A fresh secret for the compact parameters. */
  public static SecretKey generateSecret(CompactParams cp, SecureRandom random) {
    return SecretKey.generate(cp.keys(), random);
  }

  /** The client id. */
  public String clientId() {
    return clientId;
  }

  /** The server's preset ({@code cp.server()}): the database's, which answers carry. */
  @Override
  public Params params() {
    return cp.server();
  }

  @Override
  public Geometry geometry() {
    return geometry;
  }

  /** True: the server expands this client's queries with its uploaded evaluation keys. */
  @Override
  public boolean compact() {
    return true;
  }

  @Override
  public synchronized byte[] queryMessage(long index) {
    if (keys == null) {
      throw new IllegalStateException("a compact query needs the client's evaluation keys:"
          + " generate and upload them, or adopt the uploaded ones, before querying");
    }
    return Wire.writeCompactQuery(query(index));
  }

  @Override
  public Optional<byte[]> evaluationKeysMessage() {
    return Optional.of(Wire.writeEvaluationKeys(evaluationKeys()));
  }

  @Override
  public void useEvaluationKeysMessage(byte[] evaluationKeys) {
    useEvaluationKeys(Wire.readEvaluationKeys(evaluationKeys, cp));
  }

  @Override
  public Optional<byte[]> packingKeyMessage() {
    int planes = geometry.planes();
    if (planes < 2 || planes > PlanePacking.MAX_PLANES) {
      return Optional.empty();
    }
    return Optional.of(Wire.writePackingKey(cp.server(), packingKey().upload()));
  }

  /**
   * This client's evaluation keys, generated on the first call: key-switching keys of ksLevels
   * rows each for the expansion depth of its geometry ({@link CompactParams#keyDepth}) and the
   * GGSW of s.
   */
  public synchronized EvaluationKeys evaluationKeys() {
    if (keys == null) {
      keys = generateKeys();
    }
    return keys;
  }

  /**
   * Adopts evaluation keys generated earlier by this client (and uploaded to the server), so
   * that queries carry their fingerprint; a client started again must do this before querying.
   *
   * @throws IllegalArgumentException when the keys belong to another client or preset, or do not
   *     cover this geometry's expansion depth
   */
  public synchronized void useEvaluationKeys(EvaluationKeys k) {
    if (!k.clientId().equals(clientId)) {
      throw new IllegalArgumentException("evaluation keys belong to client '" + k.clientId()
          + "', not to '" + clientId + "'");
    }
    byte[] wire = Wire.writeEvaluationKeys(k);
    Wire.readEvaluationKeys(wire, cp); // checks the preset and every length
    k.checkDepth(cp, geometry.rows(), geometry.cols());
    this.keys = k;
  }

  private EvaluationKeys generateKeys() {
    Params kp = cp.keys();
    int n = kp.n();
    int per = kp.glweLimbs() * n;
    byte[] seed = Prg.newSeed(random);
    Prg noise = Prg.fromSecureRandom(random);
    long[] s = sk.coefficients();
    int depth = cp.keyDepth(geometry.rows(), geometry.cols());
    short[] ksk = new short[depth * cp.ksLevels() * per];
    long[] sAut = new long[n];
    Gadget ks = cp.ksGadget();
    for (int j = 0; j < depth; j++) {
      int p = n / (1 << j) + 1;
      Znx.automorphism(n, p, s, 0, sAut, 0);
      for (int i = 0; i < cp.ksLevels(); i++) {
        long[] msg = new long[per];
        ks.addScaled(msg, n, i, sAut, 0);
        kops.encryptSeeded(sk, msg, seed, EvaluationKeys.kskStream(cp, j, i), noise, cp.keyBits())
            .copyBodyTo(ksk, (j * cp.ksLevels() + i) * per);
      }
    }
    short[] g = new short[2 * kp.ggswLevels() * per];
    kops.encryptSeededGgsw(sk, s, seed, EvaluationKeys::ggswStream, noise, cp.keyBits())
        .copyBodiesTo(g, 0);
    return new EvaluationKeys(cp.id(), clientId, seed, ksk, g);
  }

  /** A compact query for record {@code index}, made for this client's evaluation keys. */
  public CompactQuery query(long index) {
    Geometry.Cell target = geometry.cellOf(index);
    Params sp = cp.server();
    Params kp = cp.keys();
    int n = kp.n();
    int per = kp.glweLimbs() * n;
    int rows = geometry.rows();
    int cols = geometry.cols();
    byte[] seed = Prg.newSeed(random);
    Prg noise = Prg.fromSecureRandom(random);
    CompactParams.Layout layout = cp.layout(rows, cols);
    // phase-1 value r*plaintextLimbs + l holds [r == target] 2^-(phase1ScaleBits(l) + l1);
    // phase-2 value t*ggswLevels + j holds bit_t g_j 2^-l2 (g_j the server's GGSW gadget)
    int l1 = layout.phase1Depth();
    long[] m1 = new long[per];
    for (int l = 0; l < sp.plaintextLimbs(); l++) {
      Gadget.addPowerOfTwo(m1, n, kp.base2k(), sp.phase1ScaleBits(l) + l1,
          layout.phase1Slot(target.row() * sp.plaintextLimbs() + l), 1);
    }
    Gadget g2 = sp.ggswGadget();
    int levels = Geometry.levels(cols);
    long[] m2 = layout.packed() ? m1 : new long[per];
    int l2 = layout.phase2Depth();
    int lg = sp.ggswLevels();
    for (int t = 0; t < levels; t++) {
      if (((target.column() >> t) & 1) == 1) {
        for (int j = 0; j < lg; j++) {
          g2.addScaled(m2, n, j, layout.phase2Slot(t * lg + j), 1, l2);
        }
      }
    }
    short[] b1 = kops.encryptSeeded(sk, m1, seed, CompactQuery.PHASE1_STREAM, noise,
        cp.queryBits()).body();
    boolean second = levels > 0 && !layout.packed();
    short[] b2 = second ? kops.encryptSeeded(sk, m2, seed, CompactQuery.PHASE2_STREAM, noise,
        cp.queryBits()).body() : new short[0];
    return new CompactQuery(cp.id(), clientId, evaluationKeys().fingerprint(), rows, cols, seed,
        b1, b2);
  }

  /**
   * This client's plane-packing key for its geometry ({@link PirClient#packingKey}): uploaded
   * once next to the evaluation keys, it lets the server answer records spanning planes with one
   * shared mask.
   */
  public PlanePacking.Key packingKey() {
    return decoder.packingKey();
  }

  /** The bytes of record {@code index} from the answer to its compact query. */
  @Override
  public byte[] decode(Answer a, long index) {
    return decoder.decode(a, index);
  }

  /** The largest |noise| of an answer with known plaintext digits (tests, calibration). */
  public double measureNoise(Answer a, long[][] expectedDigits) {
    return decoder.measureNoise(a, expectedDigits);
  }

  /** The noise of every coefficient of one plane of an answer (tests, calibration). */
  public double[] noise(Answer a, int plane, long[] expectedDigits) {
    return decoder.noise(a, plane, expectedDigits);
  }
}
