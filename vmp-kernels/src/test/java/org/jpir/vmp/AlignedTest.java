package org.jpir.vmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AlignedTest {

  @Test
  void leadReachesTheNextBoundary() {
    assertEquals(6, Aligned.lead(16));
    assertEquals(5, Aligned.lead(24));
    assertEquals(0, Aligned.lead(0));
    assertEquals(0, Aligned.lead(64));
    assertEquals(4, Aligned.lead(96));
    for (int base = 0; base < 256; base += 8) {
      int lead = Aligned.lead(base);
      assertTrue(lead >= 0 && lead < 8, "base " + base);
      assertEquals(0, (base + 8 * lead) % 64, "base " + base);
    }
  }

  @Test
  void upRoundsToTheLeadModuloEight() {
    for (int i = 0; i < 100; i++) {
      int u = Aligned.up(i);
      assertTrue(u >= i && u < i + 8, "i=" + i + " up=" + u);
      assertEquals(Aligned.LEAD, u % 8, "i=" + i);
    }
  }

  /** The test JVMs run with jpir-jvm.options, which must make the alignment hold. */
  @Test
  void theProjectsJvmOptionsAlignEveryArray() {
    assertTrue(JvmOptions.list().contains("-XX:ObjectAlignmentInBytes=64"), JvmOptions.joined());
    assertTrue(Aligned.guaranteed(), Aligned.describe());
    assertEquals(0, (Aligned.baseOffset() + 8 * Aligned.LEAD) % Aligned.BYTES);
  }

  @Test
  void layoutsStartAtTheLead() {
    Pmat p = Pmat.allocate(16, 3, 5);
    Pvec v = Pvec.allocate(16, 3);
    assertEquals(Aligned.LEAD, p.base());
    assertEquals(Aligned.LEAD, v.base());
    assertEquals(16 * 3 * 5, p.length());
    assertEquals(16 * 3, v.length());
    p.setAll(i -> i + 1);
    assertEquals(1.0, p.data()[p.base()]);
    assertEquals(p.length(), p.toArray()[p.length() - 1]);
  }
}
