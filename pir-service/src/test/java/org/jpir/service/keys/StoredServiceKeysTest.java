package org.jpir.service.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jpir.core.client.CompactClient;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.Geometry;
import org.jpir.core.wire.Sizes;
import org.jpir.core.wire.Wire;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StoredServiceKeys} on Hadoop's local file system: the byte bound evicts the least
 * recently used keys (counted; persisted ones come back from disk), the time to live expires
 * unused keys (an injected clock; the refusal names the client; files deleted on access and by
 * a sweep), a new store over the same directory serves the keys uploaded before (a real compact
 * query accepted), hostile client ids never become paths, concurrent uploads all land.
 */
class StoredServiceKeysTest {
  static final CompactParams CP = CompactParams.TEST_INSECURE_256_COMPACT;
  static final Geometry G = Geometry.of(CP.server(), 8 * 21,
      CP.server().bytesPerPolynomial(), 8);
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Map<String, CompactClient> CLIENTS = new ConcurrentHashMap<>();
  static final long DAY = 86_400_000L;

  @TempDir
  Path dir;
  final AtomicLong now = new AtomicLong(1_700_000_000_000L);

  static CompactClient client(String id) {
    return CLIENTS.computeIfAbsent(id, i -> new CompactClient(CP, G,
        CompactClient.generateSecret(CP, RANDOM), i, RANDOM));
  }

  static byte[] evk(String id) {
    return Wire.writeEvaluationKeys(client(id).evaluationKeys(), CP);
  }

  static long entryBytes(String id) {
    return evk(id).length + Sizes.preparedKeys(CP);
  }

  StoredServiceKeys store(boolean persisted, long ttl, long maxBytes) {
    return new StoredServiceKeys(List.of(CP), persisted ? dir.toUri().toString() : null, ttl,
        maxBytes, now::get);
  }

  List<Path> keyFiles() throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile).toList();
    }
  }

  @Test
  void theLeastRecentlyUsedKeysAreEvictedBeyondTheByteBound() {
    for (boolean persisted : new boolean[] {false, true}) {
      StoredServiceKeys keys = store(persisted, 0, entryBytes("a") * 5 / 2);
      keys.upload("a", CP, evk("a"), null);
      keys.upload("b", CP, evk("b"), null);
      assertTrue(keys.lookup("a", CP).isPresent()); // a is now more recent than b
      keys.upload("c", CP, evk("c"), null);
      KeyStoreStats st = keys.stats();
      assertEquals(1, st.evictions());
      assertEquals(2, st.heldKeys());
      assertEquals(entryBytes("a") + entryBytes("c"), st.heldBytes());
      assertTrue(keys.lookup("a", CP).isPresent());
      // persisted: b comes back from its file (evicting c, the least recent); else it is gone
      assertEquals(persisted, keys.lookup("b", CP).isPresent());
      assertEquals(persisted ? 2 : 1, keys.stats().evictions());
      assertTrue(keys.stats().heldBytes() <= entryBytes("a") * 5 / 2);
    }
  }

  @Test
  void oneEntryLargerThanTheBoundIsStillHeld() {
    StoredServiceKeys keys = store(false, 0, 1);
    keys.upload("a", CP, evk("a"), null);
    assertTrue(keys.lookup("a", CP).isPresent());
    keys.upload("b", CP, evk("b"), null);
    assertFalse(keys.lookup("a", CP).isPresent());
    assertTrue(keys.lookup("b", CP).isPresent());
    assertEquals(1, keys.stats().evictions());
  }

  @Test
  void unusedKeysExpireAndEachUseRefreshesTheirTimeToLive() throws IOException {
    StoredServiceKeys keys = store(true, DAY, 1L << 30);
    KeyInfo up = keys.upload("alice", CP, evk("alice"), null);
    assertEquals(now.get() + DAY, up.expiresAtMillis());
    now.addAndGet(DAY - 1);
    KeyInfo used = keys.lookup("alice", CP).orElseThrow(); // refreshed
    assertEquals(now.get() + DAY, used.expiresAtMillis());
    now.addAndGet(DAY);
    assertTrue(keys.lookup("alice", CP).isPresent());
    assertEquals(1, keyFiles().size());
    now.addAndGet(DAY + 1);
    assertTrue(keys.lookup("alice", CP).isEmpty());
    assertEquals(1, keys.stats().expirations());
    String why = keys.missing("alice", CP);
    assertTrue(why.contains("client 'alice'") && why.contains("expired"), why);
    assertTrue(keys.missing("bob", CP).contains("no evaluation keys for client 'bob'"));
    assertEquals(List.of(), keyFiles(), "the expired file is deleted on access");
    assertFalse(keys.status("alice", CP).present());
    keys.upload("alice", CP, evk("alice"), null); // a new upload: present, not expired
    assertTrue(keys.lookup("alice", CP).isPresent());
    assertFalse(keys.missing("alice", CP).contains("expired"));
  }

  @Test
  void aSweepDeletesExpiredFilesAndKeepsLiveOnes() throws IOException {
    StoredServiceKeys keys = store(true, DAY, 1L << 30);
    keys.upload("old", CP, evk("old"), null);
    now.addAndGet(DAY / 2);
    keys.upload("new", CP, evk("new"), null);
    now.addAndGet(DAY / 2 + 1);
    assertEquals(1, keys.sweep());
    assertEquals(1, keyFiles().size());
    assertEquals(1, keys.stats().heldKeys());
    // a file the memory does not hold (written by an earlier run) is swept by its time too
    StoredServiceKeys restarted = store(true, DAY, 1L << 30);
    now.addAndGet(DAY);
    assertEquals(1, restarted.sweep());
    assertEquals(List.of(), keyFiles());
  }

  @Test
  void aRestartedStoreReadsTheKeysBackLazilyAndAcceptsTheirQueries() {
    StoredServiceKeys first = store(true, DAY, 1L << 30);
    KeyInfo up = first.upload("carol", CP, evk("carol"), null);
    assertEquals(client("carol").evaluationKeys().fingerprint(), up.fingerprint());
    now.addAndGet(DAY / 2);
    StoredServiceKeys second = store(true, DAY, 1L << 30);
    assertEquals(0, second.stats().heldKeys(), "nothing read before it is asked for");
    KeyInfo st = second.status("carol", CP);
    assertTrue(st.present());
    assertEquals(up.fingerprint(), st.fingerprint());
    assertEquals(up.expiresAtMillis(), st.expiresAtMillis(), "status is not a use");
    assertTrue(second.lookup("carol", CP).isPresent());
    byte[] q = Wire.writeCompactQuery(client("carol").query(5), CP);
    assertNotNull(second.compactQueries(CP).accept(q, G));
    assertTrue(second.lookup("dave", CP).isEmpty());
    second.delete("carol", CP);
    assertTrue(store(true, DAY, 1L << 30).lookup("carol", CP).isEmpty());
  }

  @Test
  void keysPutByHandInTheDirectoryFlowsLayoutAreRead() throws IOException {
    Files.createDirectories(dir.resolve(CP.id()));
    Files.write(dir.resolve(CP.id()).resolve("henry.evk"), evk("henry"));
    Files.write(dir.resolve(CP.id()).resolve("ivy.evk"), evk("henry")); // not ivy's
    StoredServiceKeys keys = store(true, DAY, 1L << 30);
    assertEquals(client("henry").evaluationKeys().fingerprint(),
        keys.lookup("henry", CP).orElseThrow().fingerprint());
    assertTrue(keys.lookup("ivy", CP).isEmpty());
    byte[] q = Wire.writeCompactQuery(client("henry").query(1), CP);
    assertNotNull(keys.compactQueries(CP).accept(q, G));
  }

  @Test
  void corruptedOrForeignFilesAreMissingKeysNotFailures() throws IOException {
    StoredServiceKeys keys = store(true, 0, 1L << 30);
    keys.upload("erin", CP, evk("erin"), null);
    keys.upload("frank", CP, evk("frank"), null);
    Path erin = keyFiles().stream().filter(p -> p.getFileName().toString()
        .equals(KeyFiles.fileName("erin"))).findFirst().orElseThrow();
    Path frank = erin.resolveSibling(KeyFiles.fileName("frank"));
    Files.write(erin, new byte[] {1, 2, 3});
    Files.copy(frank, erin.resolveSibling(KeyFiles.fileName("gina")));
    StoredServiceKeys restarted = store(true, 0, 1L << 30);
    assertTrue(restarted.lookup("erin", CP).isEmpty());
    assertTrue(restarted.lookup("gina", CP).isEmpty(), "frank's keys under gina's name");
    assertTrue(restarted.lookup("frank", CP).isPresent());
  }

  @Test
  void hostileClientIdsNeverBecomePaths() throws IOException {
    StoredServiceKeys keys = store(true, 0, 1L << 30);
    for (String bad : new String[] {"../x", "a/b", "", "a\u0000b", "x".repeat(65), "..\\y"}) {
      assertThrows(IllegalArgumentException.class, () -> keys.upload(bad, CP, evk("h1"), null));
      assertThrows(IllegalArgumentException.class, () -> keys.lookup(bad, CP));
    }
    // valid ids that would be dangerous or colliding as file names
    List<String> odd = List.of("..", ".", "-", "H1", "h1");
    for (String id : odd) {
      keys.upload(id, CP, evk(id), null);
    }
    List<Path> files = keyFiles();
    assertEquals(odd.size(), files.size());
    for (Path f : files) {
      assertTrue(f.startsWith(dir) && f.getFileName().toString().matches("k-[0-9a-f]{64}\\.keys"),
          f.toString());
    }
    StoredServiceKeys restarted = store(true, 0, 1L << 30);
    for (String id : odd) {
      assertEquals(client(id).evaluationKeys().fingerprint(),
          restarted.lookup(id, CP).orElseThrow().fingerprint(), id);
    }
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> keys.upload("mallory", CP, evk("h1"), null));
    assertTrue(e.getMessage().contains("belong to client 'h1'"), e.getMessage());
    byte[] big = new byte[(int) Wire.maxEvaluationKeysBytes(CP) + 1];
    assertThrows(IllegalArgumentException.class, () -> keys.upload("h1", CP, big, null));
  }

  @Test
  void concurrentUploadsAllLand() throws Exception {
    StoredServiceKeys keys = store(true, DAY, 1L << 30);
    List<String> ids = List.of("c0", "c1", "c2", "c3", "c4", "c5");
    ids.forEach(StoredServiceKeysTest::evk); // keys made before the race
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<?>> fs = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        for (String id : ids) {
          fs.add(pool.submit(() -> keys.upload(id, CP, evk(id), null)));
          fs.add(pool.submit(() -> keys.lookup(id, CP)));
        }
      }
      for (Future<?> f : fs) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    long bytes = 0;
    for (String id : ids) {
      assertEquals(client(id).evaluationKeys().fingerprint(),
          keys.lookup(id, CP).orElseThrow().fingerprint());
      bytes += entryBytes(id);
    }
    assertEquals(bytes, keys.stats().heldBytes());
    assertEquals(ids.size(), keyFiles().size());
    assertEquals(Set.copyOf(ids.stream().map(KeyFiles::fileName).toList()),
        Set.copyOf(keyFiles().stream().map(p -> p.getFileName().toString()).toList()));
  }

  @Test
  void durationsParse() {
    assertEquals(7 * DAY, KeySettings.durationMillis("7d"));
    assertEquals(90_000, KeySettings.durationMillis("90"));
    assertEquals(250, KeySettings.durationMillis("250ms"));
    assertEquals(0, KeySettings.durationMillis("0"));
    assertThrows(IllegalArgumentException.class, () -> KeySettings.durationMillis("-1h"));
    assertThrows(IllegalArgumentException.class, () -> KeySettings.durationMillis("1w"));
  }
}
