package org.jpir.core.params;

import java.util.Locale;

/**
 * Parameters of the scheme, validated on construction. All ciphertexts live on the torus
 * {@code T = R/Z} represented in base-2^K limbs (limb i weighs {@code 2^(-K*(i+1))}).
 *
 * @param id the preset's name; test-only presets contain "insecure"
 * @param n ring degree N of {@code Z[X]/(X^N+1)}
 * @param base2k K, bits per limb
 * @param plaintextBits database bits per coefficient (a multiple of 8)
 * @param plaintextLimbs limbs the plaintext digits occupy (phase-1 rows per database row);
 *     {@code K*plaintextLimbs - plaintextBits} guard bits absorb the noise
 * @param glweLimbs limbs per component of every fresh ciphertext (query rows, GGSW rows, phase-1
 *     result): the ciphertext modulus is {@code q = 2^(K*glweLimbs)}
 * @param ggswLevels gadget levels of the phase-2 GGSWs: the phase-1 result is decomposed into
 *     this many limbs per component
 * @param answerLimbs limbs per component of the final GLWE in memory (it is rounded to them
 *     before the modulus switch below)
 * @param sigma standard deviation of the discrete Gaussian noise in units of {@code 1/q}
 * @param securityBits the security level claimed (0 for insecure test presets); checked by
 *     {@link Security#check} (where the presets are built); the estimate is {@link
 *     #estimatedSecurity}
 * @param answerBitsB bits per coefficient of an answer's b part on the wire: the modulus switch
 *     rounds b to a multiple of {@code 2^-answerBitsB} ({@link AnswerSwitch})
 * @param answerBitsA bits per coefficient of an answer's a part (a multiple of {@code
 *     2^-answerBitsA}); the rounding of a reaches the phase through a*s, so it needs more bits
 * @param ggswBits bits per digit of the GGSW gadget ({@link org.jpir.core.params.Gadget}: row j
 *     has phase {@code mu 2^-(ggswBits (j+1))}); K for the presets whose digits are the limbs
 * @param scaledPlaintext the plaintext-modulus encoding (BFV-like; {@code plaintextLimbs = 1}):
 *     a database digit is the {@code plaintextBits}-bit value itself, centred, and the phase-1
 *     query row carries the scale {@code 2^-plaintextBits}; otherwise the digits are the K-bit
 *     limbs of {@code v 2^-plaintextBits} and query row l carries {@code 2^-K(l+1)}. Both give
 *     the phase {@code v 2^-plaintextBits}; the scaled digits are {@code 2^(K-plaintextBits)}
 *     times smaller, and so is the noise phase 1 multiplies by them
 */
public record Params(String id, int n, int base2k, int plaintextBits, int plaintextLimbs,
    int glweLimbs, int ggswLevels, int answerLimbs, double sigma, int securityBits,
    int answerBitsB, int answerBitsA, int ggswBits, boolean scaledPlaintext) {

  /**
   * Parameters whose GGSW digits are the K-bit limbs and whose plaintext digits are limbs (every
   * preset before finer gadgets).
   */
  public Params(String id, int n, int base2k, int plaintextBits, int plaintextLimbs,
      int glweLimbs, int ggswLevels, int answerLimbs, double sigma, int securityBits,
      int answerBitsB, int answerBitsA) {
    this(id, n, base2k, plaintextBits, plaintextLimbs, glweLimbs, ggswLevels, answerLimbs, sigma,
        securityBits, answerBitsB, answerBitsA, base2k, false);
  }

  /**
   * Parameters whose answers travel as whole limbs: {@code answerBitsB = answerBitsA = min(64, K
   * answerLimbs)} (no modulus switch below the limbs).
   */
  public Params(String id, int n, int base2k, int plaintextBits, int plaintextLimbs,
      int glweLimbs, int ggswLevels, int answerLimbs, double sigma, int securityBits) {
    this(id, n, base2k, plaintextBits, plaintextLimbs, glweLimbs, ggswLevels, answerLimbs, sigma,
        securityBits, Math.min(64, base2k * answerLimbs), Math.min(64, base2k * answerLimbs));
  }

  /** These parameters with the answer's modulus switched to the given bits (same id). */
  public Params withAnswerBits(int bitsB, int bitsA) {
    return new Params(id, n, base2k, plaintextBits, plaintextLimbs, glweLimbs, ggswLevels,
        answerLimbs, sigma, securityBits, bitsB, bitsA, ggswBits, scaledPlaintext);
  }

  /** The gadget of this preset's GGSWs: ggswLevels digits of ggswBits bits. */
  public Gadget ggswGadget() {
    return new Gadget(base2k, ggswBits, ggswLevels);
  }

  /**
   * The exponent e of phase-1 query row l's scale {@code 2^-e}: {@code plaintextBits} for the
   * scaled encoding, {@code K (l+1)} otherwise.
   */
  public int phase1ScaleBits(int l) {
    return scaledPlaintext ? plaintextBits : base2k * (l + 1);
  }

  /**
   * Bits of the largest database digit magnitude, {@code |digit| <= 2^(bits-1)}:
   * plaintextBits for the scaled encoding, K otherwise.
   */
  public int databaseDigitBits() {
    return scaledPlaintext ? plaintextBits : base2k;
  }

  /** Validates every field; the exception names the field and the rule. */
  public Params {
    require(id != null && !id.isBlank(), "id must be non-empty");
    require(n >= 16 && n <= 65536 && Integer.bitCount(n) == 1,
        "n = " + n + " must be a power of two in [16, 65536]");
    require(base2k >= 8 && base2k <= 16, "base2k = " + base2k + " must be in [8, 16] (digits travel as 16-bit words)");
    require(plaintextBits > 0 && plaintextBits % 8 == 0,
        "plaintextBits = " + plaintextBits + " must be a positive multiple of 8");
    require(!scaledPlaintext || (plaintextLimbs == 1 && plaintextBits < base2k),
        "the scaled plaintext encoding needs plaintextLimbs = 1 and plaintextBits < K, got "
            + plaintextLimbs + " limbs of " + plaintextBits + " bits");
    require(plaintextLimbs >= 1 && plaintextBits < base2k * plaintextLimbs,
        "plaintextBits = " + plaintextBits + " must leave guard bits inside plaintextLimbs = "
            + plaintextLimbs + " limbs of " + base2k + " bits");
    require(plaintextBits <= 56, "plaintextBits = " + plaintextBits + " must be at most 56");
    require(glweLimbs > plaintextLimbs, "glweLimbs = " + glweLimbs
        + " must exceed plaintextLimbs = " + plaintextLimbs + " (room for the noise)");
    require(ggswLevels >= 1 && ggswBits * ggswLevels <= base2k * glweLimbs,
        "ggswLevels = " + ggswLevels + " digits of " + ggswBits + " bits must be at least one"
            + " and span at most the glweLimbs = " + glweLimbs + " limbs");
    require(answerLimbs > plaintextLimbs - 1 && answerLimbs <= glweLimbs,
        "answerLimbs = " + answerLimbs + " must be in [plaintextLimbs, glweLimbs]");
    for (int bits : new int[] {answerBitsB, answerBitsA}) {
      require(bits > plaintextBits && bits <= Math.min(64, base2k * answerLimbs)
          && base2k * ((bits + base2k - 1) / base2k) <= 64, "answer bits " + bits
          + " must exceed plaintextBits = " + plaintextBits + " and fit both K * answerLimbs = "
          + base2k * answerLimbs + " and 64 bits in whole limbs");
    }
    require(ggswBits >= 1 && ggswBits <= base2k && ggswBits * ggswLevels <= base2k * glweLimbs
        && (ggswBits == base2k || ggswBits * ggswLevels <= 62), "ggswBits = " + ggswBits
        + " must be in [1, K = " + base2k + "] with ggswBits * ggswLevels = "
        + ggswBits * ggswLevels + " at most K * glweLimbs (and 62 below K)");
    require(sigma >= 1 && sigma < 1e6, "sigma = " + sigma + " must be in [1, 1e6)");
    require(securityBits == 0 || securityBits == 128,
        "securityBits = " + securityBits + " must be 0 (insecure test preset) or 128");
    require(securityBits > 0 || id.toLowerCase(Locale.ROOT).contains("insecure"),
        "a preset claiming no security must have 'insecure' in its id, got '" + id + "'");
  }

  private static void require(boolean ok, String message) {
    if (!ok) {
      throw new IllegalArgumentException("invalid parameters: " + message);
    }
  }

  /** log2 of the ciphertext modulus: {@code K * glweLimbs}. */
  public int logQ() {
    return base2k * glweLimbs;
  }

  /** Standard deviation of fresh noise on the torus: {@code sigma * 2^-logQ}. */
  public double noiseStdTorus() {
    return sigma * Math.pow(2, -logQ());
  }

  /** Limbs that hold an answer's switched values: {@code ceil(max(answerBitsB, answerBitsA) / K)}. */
  public int answerSwitchedLimbs() {
    return (Math.max(answerBitsB, answerBitsA) + base2k - 1) / base2k;
  }

  /** Bytes of database per plaintext coefficient. */
  public int bytesPerCoefficient() {
    return plaintextBits / 8;
  }

  /** Bytes of database held by one plaintext polynomial: {@code N * plaintextBits / 8}. */
  public int bytesPerPolynomial() {
    return n * bytesPerCoefficient();
  }

  /** Guard bits the CMux tree keeps below the bits its GGSW decomposition reads. */
  public static final int FOLD_GUARD_BITS = 8;

  /**
   * Limbs of the CMux tree's ciphertexts (phase 2): the fewest whole limbs holding the {@code
   * ggswBits * ggswLevels} bits an external product decomposes plus {@value #FOLD_GUARD_BITS}
   * guard bits, at most glweLimbs (glweLimbs wherever the GGSW digits are the limbs). A CMux
   * reads only those top bits of its input's difference, and the phase-1 noise its inputs carry
   * lies far above the rest; the rounding to them is in the noise estimates ({@link
   * Noise#foldRounding}).
   */
  public int foldLimbs() {
    int bits = ggswBits * ggswLevels + FOLD_GUARD_BITS;
    return Math.min(glweLimbs, (bits + base2k - 1) / base2k);
  }

  /**
   * The parameters the CMux tree computes with: these with glweLimbs = {@link #foldLimbs} (and
   * the answer's limbs and bits capped to them; this object itself when nothing is cut). Same
   * id: only the CMux tree's ciphertexts and scratch follow from it, never a wire format.
   */
  public Params foldParams() {
    int f = foldLimbs();
    if (f == glweLimbs) {
      return this;
    }
    int al = Math.min(answerLimbs, f);
    return new Params(id, n, base2k, plaintextBits, plaintextLimbs, f, ggswLevels, al, sigma,
        securityBits, Math.min(answerBitsB, base2k * al), Math.min(answerBitsA, base2k * al),
        ggswBits, scaledPlaintext);
  }

  /** Columns of the phase-1 prepared matrix and of every GLWE in limb form: 2 * glweLimbs. */
  public int glweColumns() {
    return 2 * glweLimbs;
  }

  /**
   * The estimated security of this parameter set ({@link Security#estimate}: primal uSVP, classical
   * and quantum bits, and the method); computed once per preset.
   */
  public Security.Estimate estimatedSecurity() {
    return Security.estimate(this);
  }

  /** True when this preset claims a security level (and {@link Security#check} holds). */
  public boolean secure() {
    return securityBits > 0;
  }
}
