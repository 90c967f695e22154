package org.jpir.core;

import java.util.List;

/**
 * Parameters of the compact-query scheme (issue 8): the client sends one packed GLWE per phase
 * and uploads evaluation keys once; the server expands the packed GLWEs with automorphism
 * key switching into the phase-1 rows and the phase-2 GGSWs.
 *
 * <p>{@code server} is an ordinary preset: the database, the prepared query, phase 1, phase 2 and
 * the answer use it unchanged. {@code keys} are the parameters of every ciphertext the client
 * makes (packed query, key-switching keys, GGSW of s): more limbs than the server's (so that
 * expansion noise stays far below the server's precision) and the noise at the 128-bit floor of
 * {@link Security}. The expanded ciphertexts are rounded to {@code server.glweLimbs()} limbs.
 * {@code keys.ggswLevels()} is the number of gadget levels of the GGSW of s; {@code ksLevels}
 * the gadget levels (K-bit digits) of the key-switching keys.
 */
public record CompactParams(Params server, Params keys, int ksLevels) {

  /**
   * Production: server {@link Presets#ONIONPIR_4096_COMPACT}; keys with q = 2^112 (7 limbs) and
   * sigma = 3.2 * 2^3 units of 1/q, i.e. 3.2 * 2^-109 on the torus (exactly the 128-bit minimum
   * at N = 4096); key switching with 6 levels of 16-bit digits; GGSW of s with 6 levels.
   */
  public static final CompactParams ONIONPIR_4096_COMPACT = new CompactParams(
      Presets.ONIONPIR_4096_COMPACT,
      new Params("onionpir-4096-compact-128-keys", 4096, 16, 40, 3, 7, 6, 7, 3.2 * 8, 128), 6);

  /** Tests only: the production compact shape at N = 256. */
  public static final CompactParams TEST_INSECURE_256_COMPACT = new CompactParams(
      Presets.TEST_INSECURE_256_COMPACT,
      new Params("test-insecure-256-compact-keys", 256, 16, 40, 3, 7, 6, 7, 3.2 * 8, 0), 6);

  /** Tests only: the production compact shape at N = 1024. */
  public static final CompactParams TEST_INSECURE_1024_COMPACT = new CompactParams(
      Presets.TEST_INSECURE_1024_COMPACT,
      new Params("test-insecure-1024-compact-keys", 1024, 16, 40, 3, 7, 6, 7, 3.2 * 8, 0), 6);

  /** Validates the pairing; messages name the rule. */
  public CompactParams {
    if (server == null || keys == null) {
      throw new IllegalArgumentException("compact parameters need server and key parameters");
    }
    if (server.n() != keys.n() || server.base2k() != keys.base2k()) {
      throw new IllegalArgumentException("server (" + server.id() + ") and key (" + keys.id()
          + ") parameters must share N and K");
    }
    if (keys.glweLimbs() < server.glweLimbs()) {
      throw new IllegalArgumentException("key parameters have " + keys.glweLimbs()
          + " limbs, fewer than the server's " + server.glweLimbs());
    }
    if (server.plaintextLimbs() + 1 >= keys.glweLimbs()
        || server.ggswLevels() + 1 >= keys.glweLimbs()) {
      throw new IllegalArgumentException("packed values need plaintextLimbs and ggswLevels"
          + " below keys.glweLimbs - 1");
    }
    if (ksLevels < 1 || ksLevels > keys.glweLimbs()) {
      throw new IllegalArgumentException("ksLevels = " + ksLevels + " must be in [1, "
          + keys.glweLimbs() + "]");
    }
    if (server.secure() != keys.secure()) {
      throw new IllegalArgumentException("server and key parameters must both be secure or both"
          + " insecure (" + server.id() + ", " + keys.id() + ")");
    }
    Security.check(server);
    Security.check(keys);
  }

  /** The id of the compact scheme: the server preset's id. */
  public String id() {
    return server.id();
  }

  /** Number of automorphism keys: log2 N (X -> X^(N/2^j + 1), j = 0 .. log2 N - 1). */
  public int automorphisms() {
    return Integer.numberOfTrailingZeros(server.n());
  }

  /** Slots of the phase-1 packed ciphertext: rows * plaintextLimbs. */
  public int phase1Slots(int rows) {
    return rows * server.plaintextLimbs();
  }

  /** Slots of the phase-2 packed ciphertext: CMux levels * ggswLevels. */
  public int phase2Slots(int cols) {
    return Noise.levels(cols) * server.ggswLevels();
  }

  /** Expansion depth for a slot count: ceil(log2 slots) (0 for at most one slot). */
  public static int depth(int slots) {
    return slots <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(slots - 1);
  }

  /** Throws when a geometry does not fit one packed ciphertext per phase. */
  public void checkGeometry(int rows, int cols) {
    if (rows < 1 || cols < 1 || phase1Slots(rows) > server.n() || phase2Slots(cols) > server.n()) {
      throw new IllegalArgumentException("compact queries of preset " + id() + " hold at most "
          + server.n() + " slots per phase: rows * " + server.plaintextLimbs() + " = "
          + (long) rows * server.plaintextLimbs() + ", CMux levels * " + server.ggswLevels()
          + " = " + phase2Slots(Math.max(1, cols)));
    }
  }

  /**
   * The default geometry for compact queries. Expansion costs about {@code plaintextLimbs} key
   * switches per row and phase 2 one CMux per column, both independent of the data, so rows are
   * {@code sqrt(polys * cmux / (plaintextLimbs * keySwitch))}: with the measured ratio cmux /
   * keySwitch of about 1/2 at N = 4096, {@code rows = sqrt(polys / 6)}, capped so that rows *
   * plaintextLimbs fits N slots. (Geometry.choose, about sqrt(polys / 2), suits expanded
   * queries, whose preparation per row is cheaper.)
   */
  public Geometry chooseGeometry(long recordCount, int recordSize) {
    Geometry g = Geometry.of(server, recordCount, recordSize, 1);
    long polys = g.polynomials();
    int maxRows = server.n() / server.plaintextLimbs();
    int rows = (int) Math.max(1, Math.min(maxRows, Math.round(Math.sqrt(polys / 6.0))));
    Geometry out = Geometry.of(server, recordCount, recordSize, rows);
    checkGeometry(out.rows(), out.cols());
    return out;
  }

  /** Every compact preset. */
  public static List<CompactParams> all() {
    return List.of(ONIONPIR_4096_COMPACT, TEST_INSECURE_256_COMPACT, TEST_INSECURE_1024_COMPACT);
  }

  /** The compact preset whose server id is {@code id}. */
  public static CompactParams byId(String id) {
    for (CompactParams c : all()) {
      if (c.id().equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown compact preset '" + id + "'; known: "
        + all().stream().map(CompactParams::id).toList());
  }
}
