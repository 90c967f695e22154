package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KernelProviderTest {

  /**
   * The build runs tests with the project's JVM options; if they ever stop reaching a JVM, this
   * fails instead of the whole suite silently testing only the scalar code.
   */
  @Test
  void testJvmRunsTheVectorApiKernels() {
    KernelProvider p = KernelProvider.get();
    if (System.getProperty(KernelProvider.PROPERTY) == null) {
      assertTrue(p.vector(), "expected panama kernels, got " + p);
      assertTrue(p.choice().znxBits() >= 256, p.toString());
    } else {
      assertEquals(System.getProperty(KernelProvider.PROPERTY), p.name());
    }
  }

  @Test
  void jvmOptionsCarryTheVectorModuleFirstAfterIgnoreUnrecognized() {
    List<String> opts = JvmOptions.list();
    assertEquals("-XX:+IgnoreUnrecognizedVMOptions", opts.get(0));
    assertTrue(opts.contains("--add-modules=jdk.incubator.vector"), opts.toString());
    assertFalse(JvmOptions.joined().contains("${"));
  }

  /** The automatic choice: (preferred bits, JDK, registers) -> (FFT bits, VMP block). */
  @ParameterizedTest
  @CsvSource({
      "512, 25, 32, 512, 512:3x4", // AVX-512, JDK 25
      "512, 17, 32, 256, 256:2x3", // AVX-512, JDK 17: 512-bit paths need JDK 25
      "256, 25, 16, 256, 256:1x3", // AVX2 (or -XX:UseAVX=2): 16 registers
      "256, 17, 32, 256, 256:2x3",
      "128, 25, 32, 128, 128:1x3", // NEON
      "128, 17, 16, 128, 128:1x1", // SSE
  })
  void automaticChoiceFollowsWidthJdkAndRegisters(int bits, int jdk, int regs, int fft,
      String block) {
    KernelProvider.Choice c = KernelProvider.decide(bits, jdk, regs, true, null, null, null);
    assertTrue(c.vector(), c.toString());
    assertEquals(fft, c.fftBits(), c.toString());
    assertEquals(VmpBlock.parse(block), c.vmpBlock(), c.toString());
    assertEquals(bits, c.znxBits());
    assertTrue(c.reason().contains("module present, preferred species " + bits), c.reason());
    assertEquals(c, KernelProvider.decide(bits, jdk, regs, true, "", " ", ""),
        "blank = not forced");
  }

  @Test
  void typeProfilesLetJdk17UseThe512BitKernels() {
    KernelProvider.Choice wide = KernelProvider.decide(512, 17, true, 32, true, null, null, null);
    assertEquals(512, wide.fftBits(), wide.toString());
    assertEquals(VmpBlock.B512_3X4, wide.vmpBlock(), wide.toString());
    KernelProvider.Choice narrow = KernelProvider.decide(512, 17, false, 32, true, null, null,
        null);
    assertEquals(256, narrow.fftBits(), narrow.toString());
    assertEquals(VmpBlock.B256_2X3, narrow.vmpBlock(), narrow.toString());
    // the project's JVM options (which the tests run with) carry the option
    assertTrue(KernelProvider.typeProfiled(), "-XX:TypeProfileLevel=222 missing from the options");
  }

  @Test
  void missingModuleOrNarrowSpeciesFallsBackToTheReference() {
    KernelProvider.Choice none = KernelProvider.decide(-1, 25, 32, true, null, null, null);
    assertFalse(none.vector());
    assertTrue(none.reason().startsWith("FALLBACK: module jdk.incubator.vector"), none.reason());
    KernelProvider.Choice narrow = KernelProvider.decide(64, 25, 16, true, null, null, null);
    assertFalse(narrow.vector());
    assertTrue(narrow.reason().contains("only 64 bits"), narrow.reason());
  }

  @Test
  void withoutC2TheReferenceRunsUnlessPanamaIsForced() {
    KernelProvider.Choice c = KernelProvider.decide(512, 25, 32, false, null, null, null);
    assertFalse(c.vector());
    assertTrue(c.reason().startsWith("FALLBACK: the C2 compiler is off"), c.reason());
    assertTrue(KernelProvider.decide(512, 25, 32, false, "panama", null, null).vector());
    assertTrue(KernelProvider.c2Enabled(), "the test JVM runs C2");
  }

  @Test
  void kernelsPropertyForcesTheImplementation() {
    KernelProvider.Choice ref = KernelProvider.decide(512, 25, 32, true, "ref", "512", "512:3x4");
    assertFalse(ref.vector());
    assertEquals("ref", ref.name());
    assertTrue(ref.reason().contains("forced by -Djpir.kernels=ref"), ref.reason());
    assertFalse(KernelProvider.decide(512, 25, 32, true, " REF ", null, null).vector());
    KernelProvider.Choice pan = KernelProvider.decide(256, 25, 16, true, "panama", null, null);
    assertTrue(pan.vector());
    assertTrue(pan.reason().contains("forced by -Djpir.kernels=panama"), pan.reason());
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> KernelProvider.decide(-1, 25, 32, true, "panama", null, null));
    assertTrue(e.getMessage().contains("--add-modules=jdk.incubator.vector"), e.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
        () -> KernelProvider.decide(512, 25, 32, true, "cuda", null, null));
    assertTrue(bad.getMessage().contains("-Djpir.kernels=cuda is not one of"), bad.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"128", "256", "512"})
  void fftBitsPropertyForcesTheFftWidth(int bits) {
    for (int preferred : new int[] {128, 256, 512}) {
      KernelProvider.Choice c =
          KernelProvider.decide(preferred, 25, 32, true, null, String.valueOf(bits), null);
      assertEquals(bits, c.fftBits(), c.toString());
      assertTrue(c.fftReason().contains("forced by -Djpir.fft.bits"), c.fftReason());
      assertEquals(VmpBlock.choose(preferred, 25, 32, null).block(), c.vmpBlock(),
          "the FFT width does not move the VMP block");
    }
    assertThrows(IllegalArgumentException.class,
        () -> KernelProvider.decide(512, 25, 32, true, null, "1024", null));
  }

  @Test
  void vmpBlockPropertyForcesTheBlock() {
    for (VmpBlock b : VmpBlock.SUPPORTED) {
      KernelProvider.Choice c =
          KernelProvider.decide(512, 25, 32, true, "panama", null, b.toString());
      assertEquals(b, c.vmpBlock());
      assertEquals(512, c.fftBits(), "the block does not move the FFT width");
      assertTrue(c.vmpReason().contains("forced by -Djpir.vmp.block"), c.vmpReason());
      assertTrue(c.toString().contains("VMP block " + b + ", "), c.toString());
    }
    assertThrows(IllegalArgumentException.class,
        () -> KernelProvider.decide(512, 25, 32, true, null, null, "512:2x6"));
  }

  /** The provider builds exactly the kernels its choice names (what the log line says). */
  @Test
  void providerKernelsAreTheChosenOnes() {
    for (int fft : new int[] {128, 256, 512}) {
      for (VmpBlock b : VmpBlock.SUPPORTED) {
        KernelProvider.Choice c = KernelProvider.decide(512, 25, 32, true, null, "" + fft,
            b.toString());
        KernelProvider p = new PanamaKernelProvider(c);
        if (fft == 128) {
          assertInstanceOf(Panama128Fft.class, p.fftKernel());
        } else {
          assertEquals(fft, ((PanamaFft) p.fftKernel()).bits());
        }
        assertEquals(b, p.vmpKernel().block());
        assertEquals(b, p.vmp().block());
        assertInstanceOf(PanamaZnx.class, p.znxKernel());
        assertTrue(p.toString().startsWith("panama (Vector API: "), p.toString());
        assertTrue(p.toString().contains("; FFT " + fft + "-bit radix-4 passes"), p.toString());
      }
    }
    KernelProvider ref = KernelProvider.ref();
    assertInstanceOf(RefFft.class, ref.fftKernel());
    assertInstanceOf(RefVmp.class, ref.vmpKernel());
    assertInstanceOf(RefZnx.class, ref.znxKernel());
    assertEquals("ref", ref.vmp().kernelName());
  }

  /**
   * Each forcing property, set on a fresh JVM's command line, decides what that JVM's provider,
   * FFT plans, {@link Vmp#get()} and log line use.
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''                       | panama | PanamaFft:512 | 512:3x4 | PanamaZnx",
      "-Djpir.kernels=ref       | ref    | RefFft        | 512:3x4 | RefZnx",
      "-Djpir.kernels=panama    | panama | PanamaFft:512 | 512:3x4 | PanamaZnx",
      "-Djpir.fft.bits=256      | panama | PanamaFft:256 | 512:3x4 | PanamaZnx",
      "-Djpir.fft.bits=128      | panama | Panama128Fft  | 512:3x4 | PanamaZnx",
      "-Djpir.vmp.block=256:1x3 | panama | PanamaFft:512 | 256:1x3 | PanamaZnx",
      "-Djpir.vmp.block=128:1x1 | panama | PanamaFft:512 | 128:1x1 | PanamaZnx",
      // the JVM options without --add-modules=jdk.incubator.vector: the reference, and no
      // class that needs the module is loaded (FFT, VMP and znx would fail to link)
      "no-vector-module          | ref    | RefFft        | 512:3x4 | RefZnx",
      "-XX:TieredStopAtLevel=1   | ref    | RefFft        | 512:3x4 | RefZnx",
  })
  void forcingPropertiesReachAFreshJvm(String prop, String name, String fft, String block,
      String znx) throws IOException, InterruptedException {
    if (name.equals("panama")) {
      // the table's unforced parts are those of an AVX-512 machine on JDK 25; elsewhere expect
      // this JVM's automatic choice for them
      KernelProvider.Choice here = KernelProvider.decide(PanamaKernelProvider.preferredBits(),
          Runtime.version().feature(), KernelProvider.typeProfiled(),
          CpuInfo.get().vectorRegisters(), true, null, null, null);
      fft = prop.contains("fft.bits") ? fft : fftName(here.fftBits());
      block = prop.contains("vmp.block") ? block : here.vmpBlock().toString();
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    for (String o : JvmOptions.list()) {
      if (!(prop.equals("no-vector-module") && o.contains("jdk.incubator.vector"))) {
        cmd.add(o);
      }
    }
    cmd.add("-Xmx64m");
    cmd.add("-Xms16m");
    if (prop.startsWith("-")) {
      cmd.add(prop);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Probe.class.getName());
    Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(pr.waitFor(60, TimeUnit.SECONDS), "probe JVM did not finish");
    assertEquals(0, pr.exitValue(), out);
    String want = "probe: " + name + " " + fft + " " + block + " " + znx;
    assertTrue(out.contains(want), "want '" + want + "' in:\n" + out);
    // the start-up log line names the same FFT width and VMP block
    String log = out.lines().filter(l -> l.contains("KernelProvider - kernels: ")).findFirst()
        .orElse("");
    assertTrue(log.contains("kernels: " + name), out);
    assertEquals(prop.equals("no-vector-module"), log.contains("FALLBACK: module"), log);
    String panama = prop.equals("no-vector-module") ? "unavailable" : "vector";
    assertTrue(out.contains("; panama() " + panama), out);
    assertEquals(prop.contains("TieredStopAtLevel"), log.contains("FALLBACK: the C2"), log);
    if (name.equals("panama")) {
      assertTrue(log.contains("VMP block " + block + ", "), log);
      int bits = fft.equals("Panama128Fft") ? 128 : Integer.parseInt(fft.substring(10));
      assertTrue(log.contains("; FFT " + bits + "-bit radix-4 passes"), log);
    }
  }

  private static String fftName(int bits) {
    return bits == 128 ? "Panama128Fft" : "PanamaFft:" + bits;
  }

  /** Prints what the JVM-wide provider hands out, in the test's format. */
  static final class Probe {
    private Probe() {}

    public static void main(String[] args) {
      KernelProvider p = KernelProvider.get();
      FftKernel f = p.fftKernel();
      String fft = f instanceof PanamaFft ? "PanamaFft:" + ((PanamaFft) f).bits()
          : f.getClass().getSimpleName();
      if (!FftPlan.of(64).kernelName().equals(f.getClass().getSimpleName())
          || Vmp.get() != p.vmp()) {
        throw new AssertionError("FftPlan or Vmp do not run on the provider's kernels");
      }
      String panama;
      try {
        panama = KernelProvider.panama().vector() ? "vector" : "NOT VECTOR";
      } catch (IllegalStateException e) {
        panama = "unavailable";
      }
      System.out.println("probe: " + p.name() + " " + fft + " " + Vmp.get().block() + " "
          + p.znxKernel().getClass().getSimpleName() + "; panama() " + panama);
    }
  }
}
