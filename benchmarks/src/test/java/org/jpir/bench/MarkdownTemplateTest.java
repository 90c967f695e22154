package org.jpir.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MarkdownTemplateTest {
  private final MarkdownTemplate t = MarkdownTemplate.load("template-test.md");

  @Test
  void fillsInlineAndBlockPlaceholders() {
    assertEquals("# T\n\nrow 1\nrow 2\n\nafter $1 and $1",
        t.fill("main", "title", "T", "block", "row 1\nrow 2\n\n", "x", "$1"));
    assertEquals(" tail with 3", t.fill("inline", "y", 3));
  }

  @Test
  void anEmptyBlockTakesItsLineAndOneBlankLine() {
    assertEquals("# T\n\nafter a and a", t.fill("main", "title", "T", "block", "", "x", "a"));
  }

  @Test
  void missingOrUnusedValuesAndUnknownFragmentsAreErrors() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> t.fill("main", "title", "T", "x", "a"));
    assertTrue(e.getMessage().contains("{{block}}"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class,
        () -> t.fill("inline", "y", 1, "z", 2));
    assertTrue(e.getMessage().contains("[z]"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> t.fill("nope"));
    assertThrows(IllegalStateException.class, () -> MarkdownTemplate.load("absent.md"));
  }
}
