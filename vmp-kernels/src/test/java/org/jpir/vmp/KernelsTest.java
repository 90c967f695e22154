package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KernelsTest {

  /**
   * The build runs tests with the project's JVM options; if they ever stop reaching a JVM, this
   * fails instead of the whole suite silently testing only the scalar code.
   */
  @Test
  void testJvmRunsTheVectorApiKernels() {
    if (System.getProperty(Kernels.PROPERTY) == null) {
      assertTrue(Kernels.vectorEnabled(), "expected panama kernels, got " + Kernels.choice());
      assertTrue(Kernels.choice().vectorBits() >= 256, Kernels.choice().toString());
    } else {
      assertEquals(System.getProperty(Kernels.PROPERTY), Kernels.choice().name());
    }
  }

  @Test
  void jvmOptionsCarryTheVectorModuleFirstAfterIgnoreUnrecognized() {
    List<String> opts = JvmOptions.list();
    assertEquals("-XX:+IgnoreUnrecognizedVMOptions", opts.get(0));
    assertTrue(opts.contains("--add-modules=jdk.incubator.vector"), opts.toString());
    assertFalse(JvmOptions.joined().contains("${"));
  }
}
