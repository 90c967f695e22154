package org.jpir.spark.server;

import org.jpir.spark.SparkSetup;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.SplittableRandom;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.util.StatCounter;
import org.jpir.core.client.PirClient;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.lwe.SecretKey;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.query.QueryExpander;
import org.jpir.vmp.Pmat;
import org.junit.jupiter.api.Test;
import scala.reflect.ClassTag$;
import org.jpir.core.server.FoldSpan;

class KryoRoundTripTest {
  static final Params P = Presets.TEST_INSECURE_256;
  static final SerializerInstance KRYO =
      new KryoSerializer(SparkSetup.conf("kryo-test", "local[1]")).newInstance();

  @SuppressWarnings("unchecked")
  static <T> T roundTrip(T value) {
    ByteBuffer b = KRYO.serialize(value, ClassTag$.MODULE$.apply(value.getClass()));
    return (T) KRYO.deserialize(b, ClassTag$.MODULE$.apply(value.getClass()));
  }

  static Glwe glwe(long seed) {
    Glwe g = new Glwe(P.n(), 3);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < g.data().length; i++) {
      g.data()[i] = r.nextInt(-32768, 32768);
    }
    return g;
  }

  @Test
  void everyRegisteredTypeRoundTrips() {
    assertEquals(glwe(1), roundTrip(glwe(1)));
    Glwe[] arr = {glwe(2), glwe(3)};
    assertArrayEquals(arr, roundTrip(arr));
    Glwe[][] arr2 = {{glwe(4)}, {glwe(5), glwe(6)}};
    Glwe[][] back2 = roundTrip(arr2);
    assertArrayEquals(arr2[1], back2[1]);
    Geometry g = Geometry.of(P, 40, 1792, 4);
    PreparedQuery q = new QueryExpander(P).expand(new PirClient(P, g,
        SecretKey.generate(P, new SecureRandom()), new SecureRandom()).query(7), g);
    PreparedQuery qb = roundTrip(q);
    assertArrayEquals(q.phase1().toArray(), qb.phase1().toArray());
    assertEquals(q.ggsw().length, qb.ggsw().length);
    assertArrayEquals(q.ggsw()[1].matrix().toArray(), qb.ggsw()[1].matrix().toArray());
    PreparedQuery[] qa = roundTrip(new PreparedQuery[] {q});
    assertEquals(q.rows(), qa[0].rows());
    Pmat m = q.ggsw()[0].matrix();
    assertArrayEquals(m.toArray(), roundTrip(m).toArray());
    Pmat big = Pmat.allocate(1024, 41, 3); // 125952 doubles: two chunks, the second partial
    big.setAll(i -> i * 0.5 - 7);
    assertTrue(big.contentEquals(roundTrip(big)));
    assertEquals(2, roundTrip(new Pmat[] {m, m}).length);
    Pmat[][] withNull = roundTrip(new Pmat[][] {{null, m}});
    assertEquals(null, withNull[0][0]);
    assertArrayEquals(m.toArray(), withNull[0][1].toArray());
    PreparedGgsw gg = q.ggsw()[0];
    assertArrayEquals(m.toArray(), roundTrip(gg).matrix().toArray());
    assertEquals(2, roundTrip(new PreparedGgsw[] {gg, gg}).length);
    PreparedGgsw[][] gNull = roundTrip(new PreparedGgsw[][] {{null, gg}});
    assertEquals(null, gNull[0][0]);
    assertEquals(gg.levels(), gNull[0][1].levels());
    FoldSpan pa = new FoldSpan(3, 8, 12, new int[] {2}, new int[] {8},
        new Glwe[][][] {{{glwe(5)}, {glwe(6)}}}, 11, 12, 13, 14, "exec-1");
    FoldSpan pb = roundTrip(pa);
    assertEquals(3, pb.index());
    assertEquals(8, pb.first());
    assertEquals(12, pb.end());
    assertArrayEquals(new int[] {2}, pb.levels());
    assertArrayEquals(new int[] {8}, pb.starts());
    assertEquals("exec-1", pb.executor());
    assertEquals(13, pb.expandNanos());
    assertEquals(14, pb.foldNanos());
    assertEquals(glwe(6), pb.nodes()[0][1][0]);
    assertEquals(glwe(7), roundTrip(new Glwe[][][] {{{glwe(7)}}})[0][0][0]);
    assertArrayEquals(new double[] {1.5, -2}, roundTrip(new double[] {1.5, -2}));
    assertArrayEquals(new long[] {1, -2}, roundTrip(new long[] {1, -2}));
    assertArrayEquals(new short[] {1, -2}, roundTrip(new short[] {1, -2}));
    assertArrayEquals(new int[] {1, -2}, roundTrip(new int[] {1, -2}));
    assertArrayEquals(new byte[] {1, -2}, roundTrip(new byte[] {1, -2}));
    assertArrayEquals(new byte[] {7}, roundTrip(new byte[][] {{7}, {}})[0]);
    assertArrayEquals(new double[] {3}, roundTrip(new double[][] {{3}})[0]);
    ArrayList<Integer> list = new ArrayList<>();
    list.add(5);
    assertEquals(list, roundTrip(list));
    HashMap<String, Integer> map = new HashMap<>();
    map.put("a", 1);
    assertEquals(map, roundTrip(map));
    StatCounter sc = new StatCounter();
    sc.merge(2.0);
    assertEquals(2.0, roundTrip(sc).mean());
    assertArrayEquals(new String[] {"a", "b"}, roundTrip(new String[] {"a", "b"}));
    // QueryBatch: QueryBatchTest
    assertEquals(PirKryoRegistrator.CLASSES.length, 25, "a new registered class needs a test");
  }

  @Test
  void unregisteredClassesAreRefused() {
    assertThrows(Exception.class, () -> roundTrip(new java.util.TreeMap<String, String>()));
  }
}
