package org.jpir.core.params;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link ParameterRevision}: deterministic, different for every shipped preset, and changed by a
 * change of any single field of the record (found by reflection, so a field added to {@link
 * Params} or {@link CompactParams} without a place in the encoding fails here).
 */
class ParameterRevisionTest {

  @Test
  void theRevisionIsTheHashOfADeterministicEncoding() {
    for (Params p : Presets.all()) {
      assertArrayEquals(ParameterRevision.encoding(p), ParameterRevision.encoding(p));
      long r = ParameterRevision.of(p);
      assertEquals(r, ParameterRevision.of(p));
      assertEquals(16, ParameterRevision.hex(r).length());
      assertEquals(r, Long.parseUnsignedLong(ParameterRevision.hex(r), 16));
    }
    for (CompactParams cp : CompactParams.all()) {
      byte[] e = ParameterRevision.encoding(cp);
      assertArrayEquals(e, ParameterRevision.encoding(cp));
      assertEquals(ParameterRevision.hash(e), ParameterRevision.of(cp));
      // a compact preset's server and key parameters name the same revision: its whole record
      assertEquals(ParameterRevision.of(cp), ParameterRevision.of(cp.server()));
      assertEquals(ParameterRevision.of(cp), ParameterRevision.of(cp.keys()));
      assertEquals(ParameterRevision.of(cp), ParameterRevision.forId(cp.keys().id()));
      assertNotEquals(ParameterRevision.hash(ParameterRevision.encoding(cp.server())),
          ParameterRevision.of(cp), "the compact record is more than its server's");
    }
    Params classic = Presets.TEST_INSECURE_256;
    assertEquals(ParameterRevision.hash(ParameterRevision.encoding(classic)),
        ParameterRevision.of(classic));
  }

  @Test
  void everyShippedPresetHasItsOwnRevision() {
    Map<Long, String> seen = new HashMap<>();
    for (Params p : Presets.all()) {
      long r = ParameterRevision.forId(p.id());
      assertEquals(ParameterRevision.of(p), r);
      String other = seen.put(r, p.id());
      assertEquals(null, other, p.id() + " and " + other + " share revision "
          + ParameterRevision.hex(r));
    }
    assertEquals(Presets.all().size(), seen.size());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ParameterRevision.forId("no-such-preset"));
    assertTrue(e.getMessage().contains("'no-such-preset'"), e.getMessage());
  }

  @Test
  void changingAnySingleFieldOfAClassicPresetChangesItsRevision() {
    // records with room for every field to move on its own (base2k below 16, ggswBits below K),
    // one in each plaintext encoding
    everyFieldMatters(r -> ParameterRevision.of((Params) r), Presets.TEST_INSECURE_256,
        new Params("slack-insecure", 256, 14, 40, 3, 6, 4, 5, 3.2, 0, 56, 56, 12, false),
        new Params("slack-scaled-insecure", 256, 14, 8, 1, 4, 4, 3, 3.2, 0, 40, 40, 6, true));
  }

  @Test
  void changingAnySingleFieldOfACompactPresetChangesItsRevision() {
    everyFieldMatters(r -> ParameterRevision.of((CompactParams) r),
        CompactParams.TEST_INSECURE_256_COMPACT_SCALED, CompactParams.TEST_INSECURE_256_COMPACT);
  }

  @Test
  void anOlderNoiseLevelUnderTheSameIdIsAnotherRevision() {
    Params p = Presets.TEST_INSECURE_256;
    Params older = new Params(p.id(), p.n(), p.base2k(), p.plaintextBits(), p.plaintextLimbs(),
        p.glweLimbs(), p.ggswLevels(), p.answerLimbs(), p.sigma() / 2, p.securityBits(),
        p.answerBitsB(), p.answerBitsA(), p.ggswBits(), p.scaledPlaintext());
    assertNotEquals(ParameterRevision.of(p), ParameterRevision.of(older));
    CompactParams cp = CompactParams.TEST_INSECURE_256_COMPACT;
    CompactParams rounded = cp.withRounding(cp.queryBits() + 1, cp.keyBits());
    assertNotEquals(ParameterRevision.of(cp), ParameterRevision.of(rounded));
  }

  @Test
  void theLayoutIsSampledUpToTheLargestRows() {
    assertEquals(List.of(1, 2, 4, 5), ParameterRevision.layoutRows(5));
    assertEquals(List.of(1, 2, 4), ParameterRevision.layoutRows(4));
    assertEquals(List.of(1), ParameterRevision.layoutRows(1));
    assertTrue(ParameterRevision.layoutRows(0).isEmpty());
  }

  /** A revision function over records of one type. */
  interface Revision {
    long of(Record r);
  }

  /**
   * For every component of the records' type: at least one changed value makes a valid record
   * (of one of {@code originals}), and every valid record with that one component changed has
   * another revision than its original.
   */
  static void everyFieldMatters(Revision revision, Record... originals) {
    RecordComponent[] components = originals[0].getClass().getRecordComponents();
    assertTrue(components.length > 0);
    for (int i = 0; i < components.length; i++) {
      int valid = 0;
      for (Record original : originals) {
        long base = revision.of(original);
        Object value = get(original, components[i]);
        for (Object v : variants(value)) {
          Record changed = with(original, i, v);
          if (changed == null) {
            continue;
          }
          valid++;
          assertNotEquals(base, revision.of(changed), original.getClass().getSimpleName() + "."
              + components[i].getName() + " changed from " + value + " to " + v
              + " keeps the revision");
        }
      }
      assertTrue(valid > 0, "no valid change of " + components[i].getName() + " was tried");
    }
  }

  /** Values other than {@code v} of its type; for a record, copies with one component changed. */
  static List<Object> variants(Object v) {
    List<Object> out = new ArrayList<>();
    if (v instanceof Integer i) {
      out.addAll(List.of(i + 1, i - 1, i + 8, i - 8, i * 2, i / 2, 128, 0));
    } else if (v instanceof Double d) {
      out.addAll(List.of(d * 2, d / 2, Math.nextUp(d)));
    } else if (v instanceof Boolean b) {
      out.add(!b);
    } else if (v instanceof String s) {
      out.add(s + "-x");
    } else if (v instanceof Record r) {
      RecordComponent[] cs = r.getClass().getRecordComponents();
      for (int i = 0; i < cs.length; i++) {
        for (Object x : variants(get(r, cs[i]))) {
          Record changed = with(r, i, x);
          if (changed != null) {
            out.add(changed);
          }
        }
      }
    } else {
      throw new AssertionError("no variants for a " + v.getClass());
    }
    out.removeIf(v::equals);
    assertFalse(out.isEmpty(), "no variants of " + v);
    return out;
  }

  private static Object get(Record r, RecordComponent c) {
    try {
      return c.getAccessor().invoke(r);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  /** {@code r} with component {@code index} set to {@code value}, or null when that is invalid. */
  private static Record with(Record r, int index, Object value) {
    RecordComponent[] cs = r.getClass().getRecordComponents();
    Class<?>[] types = new Class<?>[cs.length];
    Object[] args = new Object[cs.length];
    for (int i = 0; i < cs.length; i++) {
      types[i] = cs[i].getType();
      args[i] = i == index ? value : get(r, cs[i]);
    }
    try {
      Constructor<?> c = r.getClass().getDeclaredConstructor(types);
      return (Record) c.newInstance(args);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException) {
        return null;
      }
      throw new AssertionError(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }
}
