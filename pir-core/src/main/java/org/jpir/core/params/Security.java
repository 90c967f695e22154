package org.jpir.core.params;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The security rule every production preset obeys, the estimate behind it, and the refusal of
 * insecure test presets outside tests.
 *
 * <p>Rule: a preset claiming 128 bits must (1) stay 2 bits ({@link #MARGIN_BITS}) inside the 2024
 * FHE security guidelines for ternary secrets, classical attacker: {@code effectiveLogQ <=
 * maxLogQ2024(N) - 2}, where {@link #effectiveLogQ} is the log2 q of a sigma = 3.2 instance with the
 * same ratio q / sigma (what counts is the noise on the torus); and (2) have an estimated classical
 * security of at least 128 bits by {@link #estimate}. Every ciphertext of a preset (query rows,
 * GGSWs, keys) uses the preset's noise and modulus, so one check covers them all.
 *
 * <p>Estimate: primal uSVP with the "2016 estimate" (ADPS16) success condition, BKZ block size
 * beta the smallest with {@code sqrt(beta) sigma <= delta(beta)^(2 beta - d) Vol^(1/d)}, {@code
 * d = m + N + 1}, {@code Vol = q^m nu^N}, the secret rescaled by {@code nu = sigma / sqrt(2/3)}
 * (ternary), minimized over the number of samples m; core-SVP cost {@code 0.292 beta} classical and
 * {@code 0.265 beta} quantum. Calibration: the 2018 HE-standard table was computed with the BKZ
 * sieving cost {@code 0.292 beta + 16.4 + log2(8 d)}; adding that offset (about 32 bits at N =
 * 4096) to core-SVP reproduces the table's largest log2 q for 128 bits within one bit at N =
 * 1024..8192 (test {@code SecurityTest}). Only the primal attack is modelled; the guideline
 * bound (1) covers the others.
 */
public final class Security {
  private Security() {}

  /** Bits of log2 q kept below the 2024 guideline bound by every production preset. */
  public static final int MARGIN_BITS = 2;
  /** System property that lets insecure test presets through the lookups (tests only). */
  public static final String ALLOW_INSECURE_PROPERTY = "jpir.allowInsecure";
  /** The method of {@link #estimate}, as stated to users. */
  public static final String METHOD = "primal uSVP, 2016 estimate, ternary secret; core-SVP "
      + "0.292 beta (classical) / 0.265 beta (quantum) plus the BKZ-sieve offset 16.4 + log2(8d) "
      + "that reproduces the 2018 HE-standard table";
  private static final ConcurrentHashMap<String, Estimate> CACHE = new ConcurrentHashMap<>();

  /**
   * The primal-uSVP estimate of one parameter set.
   *
   * @param beta BKZ block size of the cheapest attack
   * @param samples number of LWE samples m it uses
   * @param dimension lattice dimension d = m + N + 1
   * @param coreSvpClassical {@code 0.292 beta}
   * @param coreSvpQuantum {@code 0.265 beta}
   * @param classicalBits {@code 0.292 beta + 16.4 + log2(8d)} (the 2018 table's cost model)
   * @param quantumBits {@code 0.265 beta + 16.4 + log2(8d)}
   */
  public record Estimate(int beta, int samples, int dimension, double coreSvpClassical,
      double coreSvpQuantum, double classicalBits, double quantumBits) {
    /** One line: "classical X bits, quantum Y bits (beta = B, d = D; method)". */
    public String describe() {
      return String.format(Locale.ROOT, "classical %.0f bits, quantum %.0f bits (core-SVP %.0f /"
          + " %.0f; beta = %d, d = %d; %s)", classicalBits, quantumBits, coreSvpClassical,
          coreSvpQuantum, beta, dimension, METHOD);
    }
  }

  /**
   * B(N) of the 2018 HE standard: the largest log2 q with 128-bit security for ternary secrets at
   * noise 3.2 (27, 54, 109, 218, 438, 881 for N = 1024 .. 32768); -1 below N = 1024.
   */
  public static int maxLogQ128(int n) {
    switch (n) {
      case 1024: return 27;
      case 2048: return 54;
      case 4096: return 109;
      case 8192: return 218;
      case 16384: return 438;
      case 32768: return 881;
      default: return -1;
    }
  }

  /**
   * The 2024 FHE security guidelines' largest log2 q for 128-bit classical security, ternary
   * secret, sigma 3.19: 53 at N = 2048, 107 at N = 4096; -1 where this code states no bound.
   */
  public static int maxLogQ2024(int n) {
    switch (n) {
      case 2048: return 53;
      case 4096: return 107;
      default: return -1;
    }
  }

  /** {@code log2 q - log2(sigma / 3.2)}: the log2 q of a sigma = 3.2 instance as hard. */
  public static double effectiveLogQ(Params p) {
    return p.logQ() - Math.log(p.sigma() / 3.2) / Math.log(2);
  }

  /**
   * The least noise standard deviation on the torus that the rule allows at N: {@code 3.2 *
   * 2^-(maxLogQ2024(N) - MARGIN_BITS)}; +inf where no bound is stated.
   */
  public static double minNoiseStdTorus(int n) {
    int b = maxLogQ2024(n);
    return b < 0 ? Double.POSITIVE_INFINITY : 3.2 * Math.pow(2, -(b - MARGIN_BITS));
  }

  /** True when the preset meets both parts of the rule (class comment). */
  public static boolean meets128(Params p) {
    int b = maxLogQ2024(p.n());
    return b > 0 && effectiveLogQ(p) <= b - MARGIN_BITS + 1e-9
        && estimate(p).classicalBits() >= 128;
  }

  /**
   * Checks a preset's claim.
   *
   * @throws IllegalArgumentException when a preset claims 128 bits it does not have
   */
  public static void check(Params p) {
    if (p.securityBits() == 128 && !meets128(p)) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "preset %s claims 128-bit security but log2(q * 3.2 / sigma) = %.2f exceeds %d (the 2024"
              + " guideline bound %d at N=%d minus %d bits of margin) or the estimate is below 128"
              + " bits", p.id(), effectiveLogQ(p), maxLogQ2024(p.n()) - MARGIN_BITS,
          maxLogQ2024(p.n()), p.n(), MARGIN_BITS));
    }
  }

  /**
   * Refuses an insecure (test-only) preset unless the system property {@value
   * #ALLOW_INSECURE_PROPERTY} is {@code true}; returns {@code p}.
   *
   * @throws IllegalArgumentException naming the preset and the property
   */
  public static Params requireAllowed(Params p) {
    if (!p.secure() && !Boolean.getBoolean(ALLOW_INSECURE_PROPERTY)) {
      throw new IllegalArgumentException("preset '" + p.id() + "' is insecure (tests only) and is"
          + " refused; tests set -D" + ALLOW_INSECURE_PROPERTY + "=true");
    }
    return p;
  }

  /** The estimate of a preset (cached per id and parameters). */
  public static Estimate estimate(Params p) {
    return CACHE.computeIfAbsent(p.id() + "/" + p.n() + "/" + p.logQ() + "/" + p.sigma(),
        k -> estimate(p.n(), p.logQ(), p.sigma()));
  }

  /**
   * The primal-uSVP estimate (class comment) of ring-LWE with ring degree {@code n}, modulus
   * {@code 2^logQ}, Gaussian error of standard deviation {@code sigma} (integer units) and a
   * uniform ternary secret.
   */
  public static Estimate estimate(int n, double logQ, double sigma) {
    double lnQ = logQ * Math.log(2);
    double sigmaS = Math.sqrt(2.0 / 3);
    double lnNu = Math.log(Math.max(1.0, sigma / sigmaS));
    double lnSigma = Math.log(sigma);
    int bestBeta = Integer.MAX_VALUE;
    int bestM = -1;
    int step = Math.max(1, n / 256);
    for (int m = Math.max(1, n / 8); m <= 3 * n; m += step) {
      int d = m + n + 1;
      double lnVolPerDim = (m * lnQ + n * lnNu) / d;
      // the condition holds for every block size above the smallest one (it only gets easier),
      // so skip m unless it beats the best so far, then bisect
      int hi = Math.min(d - 1, bestBeta - 1);
      if (hi < 40 || !succeeds(hi, d, lnSigma, lnVolPerDim)) {
        continue;
      }
      int lo = 40;
      while (lo < hi) {
        int mid = (lo + hi) >>> 1;
        if (succeeds(mid, d, lnSigma, lnVolPerDim)) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      bestBeta = hi;
      bestM = m;
    }
    if (bestM < 0) {
      throw new IllegalArgumentException("no primal attack found for n = " + n + ", log2 q = "
          + logQ + ", sigma = " + sigma + " (outside the estimate's range)");
    }
    int d = bestM + n + 1;
    double offset = 16.4 + Math.log(8.0 * d) / Math.log(2);
    return new Estimate(bestBeta, bestM, d, 0.292 * bestBeta, 0.265 * bestBeta,
        0.292 * bestBeta + offset, 0.265 * bestBeta + offset);
  }

  /** The 2016 estimate's success condition for block size b in dimension d. */
  private static boolean succeeds(int b, int d, double lnSigma, double lnVolPerDim) {
    return 0.5 * Math.log(b) + lnSigma <= (2.0 * b - d) * lnDelta(b) + lnVolPerDim;
  }

  /** ln of the root-Hermite factor of BKZ-beta: {@code ((pi b)^(1/b) b / (2 pi e))^(1/(2(b-1)))}. */
  static double lnDelta(int b) {
    return (Math.log(Math.PI * b) / b + Math.log(b / (2 * Math.PI * Math.E))) / (2.0 * (b - 1));
  }
}
