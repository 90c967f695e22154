package org.jpir.core.params;

import java.util.List;

/**
 * Parameters of the compact-query scheme: the client sends one packed GLWE per phase, or one
 * for both where the noise allows ({@link #layout}), and uploads evaluation keys once; the server expands the packed GLWEs with automorphism
 * key switching into the phase-1 rows and the phase-2 GGSWs.
 *
 * <p>{@code server} is an ordinary preset: the database, the prepared query, phase 1, phase 2 and
 * the answer use it unchanged. {@code keys} are the parameters of every ciphertext the client
 * makes (packed query, key-switching keys, GGSW of s): more limbs than the server's (so that
 * expansion noise stays far below the server's precision) and the noise at the floor of {@link
 * Security} (2 bits inside the 2024 guideline bound). The expanded ciphertexts are rounded to {@code server.glweLimbs()} limbs.
 * {@code keys.ggswLevels()} is the number of gadget levels of the GGSW of s; {@code ksLevels}
 * the gadget levels (K-bit digits) of the key-switching keys. {@code queryBits} and {@code
 * keyBits}: the bits per coefficient to which the b parts of the packed query GLWEs and of the
 * evaluation keys are rounded and packed on the wire ({@link org.jpir.core.lwe.BPacking};
 * {@code K keys.glweLimbs} = no rounding); the rounding is extra noise in the estimates ({@link
 * Noise#queryFresh}, {@link Noise#keyFresh}) and does not change security (the rounded b is a
 * public function of the LWE sample).
 *
 * <p>Dependency: CompactParams uses {@link Noise} (its roundings, {@link #layout} and {@link
 * #maxRows} are chosen by the noise budget), never the other way: Noise reads compact parameters
 * through {@link Noise.Compact}, which this record implements.
 */
public record CompactParams(Params server, Params keys, int ksLevels, int queryBits,
    int keyBits, int ksBits, Phase1Digits phase1) implements Noise.Compact {

  /** Compact parameters whose phase-1 rows are the server's limbs ({@link Phase1Digits#limbsOf}). */
  public CompactParams(Params server, Params keys, int ksLevels, int queryBits, int keyBits,
      int ksBits) {
    this(server, keys, ksLevels, queryBits, keyBits, ksBits,
        server == null ? null : Phase1Digits.limbsOf(server));
  }

  /** Compact parameters whose query and key b parts travel at full precision (no rounding). */
  public CompactParams(Params server, Params keys, int ksLevels) {
    this(server, keys, ksLevels, keys.logQ(), keys.logQ());
  }

  /** Compact parameters whose key-switching digits are the keys' K-bit limbs. */
  public CompactParams(Params server, Params keys, int ksLevels, int queryBits, int keyBits) {
    this(server, keys, ksLevels, queryBits, keyBits, keys.base2k());
  }

  /** The gadget of the key-switching keys: ksLevels digits of ksBits bits. */
  public Gadget ksGadget() {
    return new Gadget(keys.base2k(), ksBits, ksLevels);
  }

  /**
   * The form the server prepares the key-switching keys in: the widest exact digits, as few as
   * keep their rounding within {@link DigitForm#MAX_SHARE} of a switch ({@link
   * DigitForm#widest}).
   */
  @Override
  public DigitForm ksForm() {
    return DigitForm.widest(keys, ksLevels, ksBits,
        DigitForm.MAX_SHARE * Noise.keySwitchOwnForm(this));
  }

  /** Noise of the production keys in units of 1/q at q = 2^112: 3.2 * 2^7 (torus 3.2 * 2^-105). */
  public static final double KEY_SIGMA = 3.2 * 128;

  /**
   * Production: server {@link Presets#ONIONPIR_4096_COMPACT}; keys with q = 2^112 (7 limbs) and
   * sigma = 3.2 * 2^7 units of 1/q, i.e. 3.2 * 2^-105 on the torus (log2(q * 3.2 / sigma) = 105:
   * 2 bits inside the 2024 guideline bound 107 at N = 4096, {@link Security}); key switching with
   * 6 levels of 16-bit digits (5 leave the truncation of a 16-bit limb, 2^-76 per key switch:
   * no geometry closes); GGSW of s with 5 levels (the budget closes with them at 682 rows x 2^20
   * columns, 2^-102; 6 levels cost 2 more key rows); answers, query b parts (82 of 112 bits)
   * and key b parts (104) rounded as {@link #switched} derives.
   */
  public static final CompactParams ONIONPIR_4096_COMPACT = switched(
      new Params("onionpir-4096-compact-128", 4096, 16, 40, 3, 5, 4, 4, 3.2, 128),
      new Params("onionpir-4096-compact-128-keys", 4096, 16, 40, 3, 7, 5, 7, KEY_SIGMA, 128), 6);

  /** Tests only: the production compact shape at N = 256. */
  public static final CompactParams TEST_INSECURE_256_COMPACT = switched(
      new Params("test-insecure-256-compact", 256, 16, 40, 3, 5, 4, 4, 3.2, 0),
      new Params("test-insecure-256-compact-keys", 256, 16, 40, 3, 7, 5, 7, KEY_SIGMA, 0), 6);

  /** Tests only: the production compact shape at N = 1024. */
  public static final CompactParams TEST_INSECURE_1024_COMPACT = switched(
      new Params("test-insecure-1024-compact", 1024, 16, 40, 3, 5, 4, 4, 3.2, 0),
      new Params("test-insecure-1024-compact-keys", 1024, 16, 40, 3, 7, 5, 7, KEY_SIGMA, 0), 6);

  /** Noise of the N = 2048 keys in units of 1/q at q = 2^64: 3.2 * 2^13 (torus 3.2 * 2^-51). */
  public static final double KEY_SIGMA_2048 = 3.2 * 8192;

  /**
   * Production, small answers: N = 2048, the scaled (plaintext-modulus) encoding of 8-bit
   * plaintexts, so a database digit is the byte itself; server q = 2^48 (3 limbs, noise 3.2/q:
   * log2 q = 48 <= 51, the 2024 guideline bound 53 at N = 2048 less 2 bits), GGSWs of 5 digits of
   * 4 bits, answers switched as derived; keys q = 2^64 with sigma = 3.2 * 2^13 units of 1/q
   * (torus 3.2 * 2^-51: log2(q * 3.2 / sigma) = 51), key switching with 8 digits of 6 bits,
   * GGSW(s) with 6 digits of 6 bits. The fine gadgets keep key switching and external products
   * quiet enough that the expansion's 4^l growth leaves the byte plaintexts room at N = 2048.
   */
  public static final CompactParams ONIONPIR_2048_COMPACT = switched(
      new Params("onionpir-2048-compact-128", 2048, 16, 8, 1, 3, 5, 3, 3.2, 128, 48, 48, 4, true),
      new Params("onionpir-2048-compact-128-keys", 2048, 16, 8, 1, 4, 6, 4, KEY_SIGMA_2048, 128,
          64, 64, 6, true), 8, 6);

  /** Tests only: the shape of {@link #ONIONPIR_2048_COMPACT} at N = 256. */
  public static final CompactParams TEST_INSECURE_256_COMPACT_SCALED = switched(
      new Params("test-insecure-256-compact-scaled", 256, 16, 8, 1, 3, 5, 3, 3.2, 0, 48, 48, 4,
          true),
      new Params("test-insecure-256-compact-scaled-keys", 256, 16, 8, 1, 4, 6, 4, KEY_SIGMA_2048,
          0, 64, 64, 6, true), 8, 6);

  /**
   * The compact preset with its roundings derived, each the fewest bits that keep the failure
   * probability per coefficient at {@link #maxRows} rows (of the unrounded preset) x {@link
   * #BUDGET_COLS} columns within 2^{@value #MAX_LOG2_FAILURE} (so no rounding changes {@link
   * #maxRows}), in this order: the server's answers ({@link AnswerSwitch#derive}, with query and
   * keys at full precision), then the query's b ({@link #deriveQueryBits}, with the answer
   * switched), then the keys' b ({@link #deriveKeyBits}, with both).
   */
  static CompactParams switched(Params server, Params keys, int ksLevels) {
    return switched(server, keys, ksLevels, keys.base2k());
  }

  /** {@link #switched(Params, Params, int)} with key-switching digits of ksBits bits. */
  static CompactParams switched(Params server, Params keys, int ksLevels, int ksBits) {
    return CompactDerivation.switched(server, keys, ksLevels, ksBits);
  }

  /** These parameters with b parts rounded to the given bits. */
  public CompactParams withRounding(int queryBits, int keyBits) {
    return new CompactParams(server, keys, ksLevels, queryBits, keyBits, ksBits, phase1);
  }

  /** These parameters with phase-1 rows in the given digits. */
  public CompactParams withPhase1(Phase1Digits digits) {
    return new CompactParams(server, keys, ksLevels, queryBits, keyBits, ksBits, digits);
  }

  /** Bits a phase-1 row keeps ({@link Phase1Digits#bits}). */
  @Override
  public int phase1Bits() {
    return phase1.bits();
  }

  /** {@link Phase1Digits#productError} of the server at {@code rows} rows. */
  @Override
  public double phase1ProductError(int rows) {
    return phase1.productError(server, rows);
  }

  /** Validates the pairing; messages name the rule. */
  public CompactParams {
    if (server == null || keys == null || phase1 == null) {
      throw new IllegalArgumentException("compact parameters need server and key parameters"
          + " and phase-1 digits");
    }
    if (!phase1.isLimbsOf(server) && (phase1.bits() > keys.logQ()
        || phase1.limbs() >= server.glweLimbs() || phase1.limbBits() < server.base2k()
        || (phase1.limbBits() > server.base2k() && phase1.bits() > 64))) {
      throw new IllegalArgumentException("phase-1 rows in " + phase1 + ": other than the"
          + " server's limbs, digits of at least K = " + server.base2k() + " bits in fewer than"
          + " its " + server.glweLimbs() + " limbs, at most the keys' " + keys.logQ()
          + " bits, and 64 when wider than K");
    }
    if (server.n() != keys.n() || server.base2k() != keys.base2k()) {
      throw new IllegalArgumentException("server (" + server.id() + ") and key (" + keys.id()
          + ") parameters must share N and K");
    }
    if (keys.glweLimbs() < server.glweLimbs()) {
      throw new IllegalArgumentException("key parameters have " + keys.glweLimbs()
          + " limbs, fewer than the server's " + server.glweLimbs());
    }
    int logN = Integer.numberOfTrailingZeros(server.n());
    int deepest = Math.max(server.phase1ScaleBits(server.plaintextLimbs() - 1),
        server.ggswBits() * server.ggswLevels());
    if (deepest + logN + keys.base2k() > keys.logQ()) {
      throw new IllegalArgumentException("packed values reach 2^-" + (deepest + logN)
          + " (phase-1 scale or GGSW gadget, times 2^-log2 N): keys need a limb of room below"
          + " it within their " + keys.logQ() + " bits");
    }
    for (int bits : new int[] {queryBits, keyBits}) {
      if (bits <= keys.base2k() || bits > keys.logQ()) {
        throw new IllegalArgumentException("b parts rounded to " + bits + " bits: must be in ("
            + keys.base2k() + ", " + keys.logQ() + "]");
      }
    }
    if (ksBits < 1 || ksBits > keys.base2k() || ksLevels < 1
        || ksBits * ksLevels > keys.base2k() * keys.glweLimbs()
        || (ksBits < keys.base2k() && ksBits * ksLevels > 62)) {
      throw new IllegalArgumentException("ksLevels = " + ksLevels + " digits of ksBits = "
          + ksBits + " bits must be at least one, with ksBits in [1, K = " + keys.base2k()
          + "], spanning at most the keys' " + keys.glweLimbs() + " limbs (and 62 bits below K)");
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

  /**
   * The most automorphism keys a client may upload: log2 N (X -> X^(N/2^j + 1), j = 0 .. log2 N
   * - 1); a client uploads the {@link #keyDepth} its geometry needs.
   */
  public int automorphisms() {
    return Integer.numberOfTrailingZeros(server.n());
  }

  /**
   * Automorphism keys a client needs for a rows x cols geometry: the deeper of the two
   * expansions of its {@link #layout} (keys j = 0 .. depth - 1).
   */
  public int keyDepth(int rows, int cols) {
    Layout l = layout(rows, cols);
    return Math.max(l.phase1Depth(), l.phase2Depth());
  }

  /**
   * Where the slots of a rows x cols query sit. Unpacked: phase-1 value i (row {@code i /
   * plaintextLimbs}, limb {@code i % plaintextLimbs}) at slot i of the phase-1 GLWE, phase-2
   * value t (CMux level {@code t / ggswLevels}, level {@code t % ggswLevels}) at slot t of the
   * phase-2 GLWE, expanded to depths {@code depth(phase1Slots)} and {@code depth(phase2Slots)}.
   * Packed (one GLWE): depth {@code L = depth(phase1Slots + 2^d2)}, {@code d2 =
   * depth(phase2Slots)}, block {@code m = 2^(L - d2)}; phase-2 value t at slot {@code (m - 1) + t
   * m} (one residue class mod m, a subtree of the expansion, so phase 2 alone costs {@code L - d2
   * + 2^d2 - 1} key switches at most), phase-1 value i at slot {@code (i / (m-1)) m + i % (m-1)}
   * (the other slots).
   *
   * @param packed one GLWE for both phases
   * @param phase1Depth expansion depth of the phase-1 values
   * @param phase2Depth expansion depth of the phase-2 values
   * @param block m (packed only; 0 otherwise)
   */
  public record Layout(boolean packed, int phase1Depth, int phase2Depth, int block) {
    /** Slot of phase-1 value i. */
    public int phase1Slot(int i) {
      return packed ? (i / (block - 1)) * block + i % (block - 1) : i;
    }

    /** Slot of phase-2 value t. */
    public int phase2Slot(int t) {
      return packed ? block - 1 + t * block : t;
    }

    /** The phase-1 value at a packed slot, or -1 when the slot holds a phase-2 value. */
    public int phase1Index(int slot) {
      if (!packed) {
        return slot;
      }
      int r = slot % block;
      return r == block - 1 ? -1 : (slot / block) * (block - 1) + r;
    }

    /** The phase-2 value at a packed slot, or -1 when the slot holds a phase-1 value. */
    public int phase2Index(int slot) {
      if (!packed) {
        return slot;
      }
      return slot % block == block - 1 ? slot / block : -1;
    }
  }

  /**
   * The layout of a rows x cols query: packed (one GLWE, half the query) exactly when the
   * database has more than one column, the packed slots fit N and the packed noise ({@link
   * Noise#compactAnswerAt} at depth L for both phases) keeps the failure probability per
   * coefficient at this geometry within 2^{@value #MAX_LOG2_FAILURE}; else unpacked. Depends only
   * on the preset and the geometry, so client and server agree.
   */
  public Layout layout(int rows, int cols) {
    int p1 = phase1Slots(rows);
    int p2 = phase2Slots(cols);
    if (p2 > 0) {
      int d2 = depth(p2);
      long total = (long) p1 + (1L << d2);
      if (total <= server.n()) {
        int l = depth((int) total);
        double v = Noise.compactAnswerAt(this, rows, cols, l, l);
        if (Noise.log2FailureProbability(server, v) <= MAX_LOG2_FAILURE) {
          return new Layout(true, l, l, 1 << (l - d2));
        }
      }
    }
    return new Layout(false, depth(p1), depth(Math.max(1, p2)), 0);
  }

  /** {@code layout(rows, cols).phase1Depth()}: the expansion depth of the phase-1 rows. */
  @Override
  public int phase1Depth(int rows, int cols) {
    return layout(rows, cols).phase1Depth();
  }

  /** {@code layout(rows, cols).phase2Depth()}: the expansion depth of the phase-2 GGSW rows. */
  @Override
  public int phase2Depth(int rows, int cols) {
    return layout(rows, cols).phase2Depth();
  }

  /** GLWEs of a rows x cols query's phase-2 part: 0 (one column, or packed) or 1. */
  public int phase2Glwes(int rows, int cols) {
    return Geometry.levels(cols) == 0 || layout(rows, cols).packed() ? 0 : 1;
  }

  /** Expansion depth for a slot count: ceil(log2 slots) (0 for at most one slot). */
  public static int depth(int slots) {
    return Noise.Compact.depth(slots);
  }

  /** Columns at which {@link #maxRows} evaluates the noise budget: 2^20. */
  public static final int BUDGET_COLS = 1 << 20;
  /**
   * The largest log2 failure probability per answer coefficient ({@link
   * Noise#log2FailureProbability}) that {@link #maxRows} allows at {@link #BUDGET_COLS} columns.
   */
  public static final double MAX_LOG2_FAILURE = -100;

  /**
   * The most rows a compact geometry may have: the largest with {@code rows * plaintextLimbs <=
   * N} (one packed ciphertext), within {@link Geometry#maxRows(Params)}, and whose noise budget
   * {@link Noise#compactAnswer} at {@link #BUDGET_COLS} columns keeps the failure probability per
   * coefficient at most 2^{@value #MAX_LOG2_FAILURE} (682 at the production preset: one more row
   * makes the expansion one level deeper, 2^-56).
   */
  public int maxRows() {
    int lo = 0;
    int hi = Math.min(server.n() / server.plaintextLimbs(), Geometry.maxRows(server));
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      double lf = Noise.log2FailureProbability(server, Noise.compactAnswer(this, mid,
          BUDGET_COLS));
      if (lf <= MAX_LOG2_FAILURE) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /**
   * Throws when a geometry does not fit one packed ciphertext per phase or has more rows than
   * {@link #maxRows}.
   */
  public void checkGeometry(int rows, int cols) {
    if (rows < 1 || cols < 1 || phase1Slots(rows) > server.n() || phase2Slots(cols) > server.n()) {
      throw new IllegalArgumentException("compact queries of preset " + id() + " hold at most "
          + server.n() + " slots per phase: rows * " + server.plaintextLimbs() + " = "
          + (long) rows * server.plaintextLimbs() + ", CMux levels * " + server.ggswLevels()
          + " = " + phase2Slots(Math.max(1, cols)));
    }
    int max = maxRows();
    if (rows > max) {
      throw new IllegalArgumentException("compact queries of preset " + id() + " allow at most "
          + max + " rows (noise budget), got " + rows);
    }
  }

  /**
   * Measured cost of one CMux level per column over one automorphism key switch, about 1/2 at
   * both production presets (N = 4096: 0.5; N = 2048 with its fine gadgets: 0.198 / 0.38 ms =
   * 0.52, {@code CompactDemo} on one core).
   */
  public static final double CMUX_PER_KEY_SWITCH = 0.5;

  /**
   * The default geometry for compact queries ({@link #chooseGeometryWithReason}).
   *
   * @throws IllegalArgumentException when no geometry fits the preset
   */
  public Geometry chooseGeometry(long recordCount, int recordSize) {
    return chooseGeometryWithReason(recordCount, recordSize).geometry();
  }

  /** A chosen geometry and, in words, why it has its rows. */
  public record GeometryChoice(Geometry geometry, String reason) {}

  /**
   * The default geometry for compact queries, with the reason. Expansion costs about {@code
   * plaintextLimbs} key switches per row and phase 2 one CMux per column and plane, both
   * independent of the data, so the cheapest rows are {@code sqrt(polys * planes *
   * CMUX_PER_KEY_SWITCH / plaintextLimbs)} (N = 4096, one plane: {@code sqrt(polys / 6)}),
   * capped by {@link #maxRows}; then lowered, by at most half, to the most rows whose query
   * still packs into one GLWE ({@link #layout}), which halves the query. Depends only on the
   * preset and the sizes, so client and server agree. ({@link Geometry#choose}, about {@code
   * sqrt(polys / 2)}, suits expanded queries, whose preparation per row is cheaper.)
   */
  public GeometryChoice chooseGeometryWithReason(long recordCount, int recordSize) {
    return chooseGeometryWithReason(recordCount, recordSize, Geometry.SHARE_SLOTS_BY_DEFAULT);
  }

  /**
   * {@link #chooseGeometryWithReason(long, int)}, with records spanning planes sharing slots
   * when {@code share} and that wastes less ({@link Geometry#slotPlanes(int, int, boolean)}).
   */
  public GeometryChoice chooseGeometryWithReason(long recordCount, int recordSize,
      boolean share) {
    return CompactGeometry.choose(this, recordCount, recordSize, share);
  }

  /** Every compact preset. */
  public static List<CompactParams> all() {
    return List.of(ONIONPIR_4096_COMPACT, TEST_INSECURE_256_COMPACT, TEST_INSECURE_1024_COMPACT,
        ONIONPIR_2048_COMPACT, TEST_INSECURE_256_COMPACT_SCALED);
  }

  /**
   * The compact preset of {@link #all} whose id is {@code id}, insecure ones included (for
   * writers, which only need its shape).
   *
   * @throws IllegalArgumentException when there is none
   */
  public static CompactParams find(String id) {
    for (CompactParams c : all()) {
      if (c.id().equals(id)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown compact preset '" + id + "'; known: "
        + all().stream().map(CompactParams::id).toList());
  }

  /**
   * The compact preset whose server id is {@code id}; an insecure test preset only when {@value
   * Security#ALLOW_INSECURE_PROPERTY} is {@code true}.
   */
  public static CompactParams byId(String id) {
    for (CompactParams c : all()) {
      if (c.id().equals(id)) {
        Security.requireAllowed(c.server());
        return c;
      }
    }
    throw new IllegalArgumentException("unknown compact preset '" + id + "'; known: "
        + all().stream().map(CompactParams::id).toList());
  }
}
