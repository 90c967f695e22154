package org.jpir.core.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code -Djpir.server.chunkColumns}: powers of two from 1 to 4096, else a clear error. */
class ChunkPropertyTest {
  @Test
  void defaultsTo128AndAcceptsPowersOfTwo() {
    assertEquals(128, PirServer.parseChunk(null));
    assertEquals(1, PirServer.parseChunk("1"));
    assertEquals(512, PirServer.parseChunk(" 512 "));
    assertEquals(4096, PirServer.parseChunk("4096"));
  }

  @Test
  void refusesOthersNamingTheProperty() {
    for (String bad : new String[] {"0", "-8", "96", "8192", "x", ""}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> PirServer.parseChunk(bad), bad);
      assertTrue(e.getMessage().contains(PirServer.CHUNK_PROPERTY), e.getMessage());
    }
  }
}
