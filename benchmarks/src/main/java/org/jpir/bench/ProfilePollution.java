package org.jpir.bench;

import java.util.Arrays;
import java.util.Random;
import org.jpir.vmp.FftPlan;

/**
 * The FFT at N = 2048 timed in a clean JVM or after the 256- and 512-bit ceiling loops have run
 * (as in a server JVM, where the 512-bit phase-1 kernels run beside the 256-bit FFT): shows what
 * the Vector API's shared call sites cost when their receiver profiles name two vector widths.
 * Run it in fresh JVMs with and without {@code -XX:TypeProfileLevel=222}:
 *
 * <pre>./pir java org.jpir.bench.ProfilePollution clean|pollute</pre>
 *
 * (the launcher adds the project's options; {@code PIR_JAVA_OPTS=-XX:TypeProfileLevel=111} puts
 * back the JVM's default). Prints the median over 11 rounds of 20,000 calls, per call.
 */
public final class ProfilePollution {
  private ProfilePollution() {}

  /** Entry point: {@code clean} or {@code pollute}. */
  public static void main(String[] args) {
    boolean pollute = args.length == 1 && args[0].equals("pollute");
    if (args.length != 1 || !(pollute || args[0].equals("clean"))) {
      System.err.println("usage: ProfilePollution clean|pollute");
      System.exit(2);
    }
    if (pollute) {
      double[] big = new double[1 << 22];
      double[] seed = new double[1024];
      Arrays.fill(seed, 1.0);
      for (int i = 0; i < 3; i++) {
        Ceilings.streamRead512(big);
        Ceilings.peakFma512(seed);
        Ceilings.streamRead256(big);
        Ceilings.peakFma256(seed);
      }
    }
    int n = 2048;
    FftPlan plan = FftPlan.of(n);
    double[] pristine = new double[n];
    double[] buf = new double[n];
    Random r = new Random(1);
    for (int i = 0; i < n; i++) {
      pristine[i] = r.nextInt(1 << 20) - (1 << 19);
    }
    int calls = 20_000;
    int rounds = 11;
    double[] fwd = new double[rounds];
    double[] inv = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      long a0 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        System.arraycopy(pristine, 0, buf, 0, n);
        plan.fft(buf, 0);
      }
      long a1 = System.nanoTime();
      for (int i = 0; i < calls; i++) {
        System.arraycopy(pristine, 0, buf, 0, n);
        plan.ifft(buf, 0);
      }
      long a2 = System.nanoTime();
      fwd[round] = (a1 - a0) / 1e3 / calls;
      inv[round] = (a2 - a1) / 1e3 / calls;
    }
    Arrays.sort(fwd);
    Arrays.sort(inv);
    System.out.printf("%s: copy+fft %.2f us, copy+ifft %.2f us (java %s)%n", args[0],
        fwd[rounds / 2], inv[rounds / 2], System.getProperty("java.version"));
  }
}
