package org.jpir.core.params;

import java.util.List;

/**
 * Named parameter sets. {@link #ONIONPIR_4096} and {@link #ONIONPIR_4096_COMPACT} are for
 * production; every preset claiming 128 bits passes {@link Security#check} when this class loads.
 * The lookup {@link #byId} refuses the insecure test presets unless {@value
 * Security#ALLOW_INSECURE_PROPERTY} is set.
 */
public final class Presets {
  private Presets() {}

  /**
   * Production: N = 4096, 16-bit limbs, 56-bit plaintext in 4 limbs (8 guard bits), q = 2^96
   * with noise 3.2/q (128-bit: log2 q = 96 <= 105, the 2024 guideline bound 107 at N = 4096 less
   * 2 bits; estimate in {@link Params#estimatedSecurity}), GGSWs with 5
   * levels, answers of 5 limbs per component. Query rows and results are GLWEs of 6 + 6 limbs.
   */
  public static final Params ONIONPIR_4096 =
      switched(new Params("onionpir-4096-128", 4096, 16, 56, 4, 6, 5, 5, 3.2, 128));

  /** Tests only: the production shape at N = 256, which has no security at all. */
  public static final Params TEST_INSECURE_256 =
      switched(new Params("test-insecure-256", 256, 16, 56, 4, 6, 5, 5, 3.2, 0));

  /** Tests only: N = 1024 with the production limbs (q = 2^96 far above 2^27: insecure). */
  public static final Params TEST_INSECURE_1024 =
      switched(new Params("test-insecure-1024", 1024, 16, 56, 4, 6, 5, 5, 3.2, 0));

  /** Largest log2 failure probability per coefficient of a classic preset's largest geometry. */
  public static final double MAX_LOG2_FAILURE = -40;
  /** Columns of the largest geometry at which answers are switched: 2^20. */
  public static final int BUDGET_COLS = 1 << 20;

  /**
   * A classic preset with its answers switched ({@link AnswerSwitch#derive}) to the fewest bits
   * that keep the failure probability at {@link Geometry#maxRows(Params)} rows x {@link
   * #BUDGET_COLS} columns within 2^{@value #MAX_LOG2_FAILURE}.
   */
  static Params switched(Params p) {
    return AnswerSwitch.derive(p, Noise.answerBeforeSwitch(p, Geometry.maxRows(p), BUDGET_COLS),
        MAX_LOG2_FAILURE);
  }

  /**
   * Production, compact queries ({@link CompactParams#ONIONPIR_4096_COMPACT}): the server side of
   * the compact scheme. 40-bit plaintexts in 3 limbs (8 guard bits), phase-1 rows and results of
   * 5 + 5 limbs (q = 2^80, noise 3.2/q: 128-bit on its own), GGSWs of 4 levels, answers switched
   * to the bits {@link CompactParams} derives. Every ciphertext the client sends for it (packed
   * query, evaluation keys) is made at the key parameters of {@link CompactParams}, q = 2^112 with
   * noise 3.2 * 2^7 / q (2 bits inside the 2024 guideline bound).
   */
  public static final Params ONIONPIR_4096_COMPACT = CompactParams.ONIONPIR_4096_COMPACT.server();

  /**
   * The preset every command uses unless told otherwise: compact queries ({@link
   * #ONIONPIR_4096_COMPACT}), since classic queries are megabytes each.
   */
  public static final Params DEFAULT = ONIONPIR_4096_COMPACT;

  /** Tests only: the compact server shape at N = 256 (no security). */
  public static final Params TEST_INSECURE_256_COMPACT =
      CompactParams.TEST_INSECURE_256_COMPACT.server();

  /** Tests only: the compact server shape at N = 1024 (no security). */
  public static final Params TEST_INSECURE_1024_COMPACT =
      CompactParams.TEST_INSECURE_1024_COMPACT.server();

  /**
   * Production, compact queries with small answers ({@link CompactParams#ONIONPIR_2048_COMPACT}):
   * N = 2048, byte plaintexts in the scaled encoding, q = 2^48, GGSWs of 5 digits of 4 bits.
   */
  public static final Params ONIONPIR_2048_COMPACT = CompactParams.ONIONPIR_2048_COMPACT.server();

  /** Tests only: the N = 2048 compact shape at N = 256 (no security). */
  public static final Params TEST_INSECURE_256_COMPACT_SCALED =
      CompactParams.TEST_INSECURE_256_COMPACT_SCALED.server();

  /**
   * Largest record for which {@link #forRecordSize} picks {@link #ONIONPIR_2048_COMPACT}: two of
   * its planes (2 KiB each). There its query, answer and keys are about a quarter to a third
   * of the N = 4096 preset's and its server time per query is no larger (compare with {@code
   * ./pir bench-server --preset <id>}; results in {@code benchmarks/results/server-*}); larger
   * records span more planes, each a CMux tree of its own, and belong to the N = 4096 preset.
   */
  public static final int N2048_MAX_RECORD = 2 * 2048;

  /**
   * The default preset for records of {@code recordSize} bytes: {@link #ONIONPIR_2048_COMPACT}
   * up to {@link #N2048_MAX_RECORD}, else {@link #DEFAULT} (N = 4096); {@link
   * #recordSizeReason} says why.
   *
   * @throws IllegalArgumentException when recordSize is not positive
   */
  public static Params forRecordSize(int recordSize) {
    if (recordSize < 1) {
      throw new IllegalArgumentException("record size " + recordSize + " must be positive");
    }
    return recordSize <= N2048_MAX_RECORD ? ONIONPIR_2048_COMPACT : DEFAULT;
  }

  /** Why {@link #forRecordSize} picks its preset, in one line for logs. */
  public static String recordSizeReason(int recordSize) {
    return recordSize <= N2048_MAX_RECORD
        ? "records of " + recordSize + " B fit " + ((recordSize + 2047) / 2048) + " plane(s) of"
            + " N = 2048 (at most " + N2048_MAX_RECORD + " B): faster and smaller than N = 4096"
        : "records of " + recordSize + " B exceed " + N2048_MAX_RECORD + " B (two N = 2048"
            + " planes): N = 4096 packs 20 KiB per plane";
  }

  /** The compact preset whose server parameters are {@code p}, or null for a classic preset. */
  public static CompactParams compactFor(Params p) {
    for (CompactParams c : CompactParams.all()) {
      if (c.server().equals(p)) {
        return c;
      }
    }
    return null;
  }

  /**
   * The geometry of a database with no stored one: a compact preset's own chooser ({@link
   * CompactParams#chooseGeometry}), else {@link Geometry#choose} with at most {@code maxRows}.
   */
  public static Geometry geometry(Params p, long count, int recordSize, int maxRows) {
    CompactParams cp = compactFor(p);
    return cp != null ? cp.chooseGeometry(count, recordSize)
        : Geometry.choose(p, count, recordSize, maxRows);
  }

  /** Every preset. */
  public static List<Params> all() {
    return List.of(ONIONPIR_4096, TEST_INSECURE_256, TEST_INSECURE_1024, ONIONPIR_4096_COMPACT,
        TEST_INSECURE_256_COMPACT, TEST_INSECURE_1024_COMPACT, ONIONPIR_2048_COMPACT,
        TEST_INSECURE_256_COMPACT_SCALED);
  }

  static {
    for (Params p : all()) {
      Security.check(p);
    }
  }

  /**
   * The preset with this id; an insecure test preset only when {@value
   * Security#ALLOW_INSECURE_PROPERTY} is {@code true}.
   *
   * @throws IllegalArgumentException naming the known ids, or the property for a test preset
   */
  public static Params byId(String id) {
    for (Params p : all()) {
      if (p.id().equals(id)) {
        return Security.requireAllowed(p);
      }
    }
    throw new IllegalArgumentException("unknown preset '" + id + "'; known: "
        + all().stream().map(Params::id).toList());
  }
}
