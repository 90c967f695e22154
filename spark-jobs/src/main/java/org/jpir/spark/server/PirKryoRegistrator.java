package org.jpir.spark.server;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import org.apache.spark.serializer.KryoRegistrator;
import org.apache.spark.util.StatCounter;
import org.jpir.core.lwe.Glwe;
import org.jpir.core.lwe.PreparedGgsw;
import org.jpir.core.params.Phase1Digits;
import org.jpir.core.query.PreparedQuery;
import org.jpir.core.server.FoldSpan;
import org.jpir.core.server.QueryBatch;
import org.jpir.vmp.Pmat;

/**
 * Registers every class that crosses the wire (broadcast prepared queries, partition results),
 * each with an explicit serializer, for {@code spark.kryo.registrationRequired=true}. GLWE digits
 * travel as 16-bit words (they are normalized); matrices as raw doubles.
 */
public final class PirKryoRegistrator implements KryoRegistrator {

  /** Every registered class, in registration order (tests round-trip each one). */
  public static final Class<?>[] CLASSES = {Glwe.class, Glwe[].class, Glwe[][].class,
      Pmat.class, Pmat[].class, Pmat[][].class, PreparedGgsw.class, PreparedGgsw[].class,
      PreparedGgsw[][].class, PreparedQuery.class, PreparedQuery[].class,
      Glwe[][][].class, FoldSpan.class, double[].class, long[].class, short[].class, double[][].class,
      byte[].class, byte[][].class, int[].class, ArrayList.class, HashMap.class,
      StatCounter.class, QueryBatch.class, String[].class};

  @Override
  public void registerClasses(Kryo kryo) {
    kryo.register(Glwe.class, new GlweSerializer());
    kryo.register(Glwe[].class);
    kryo.register(Glwe[][].class);
    kryo.register(Pmat.class, new PmatSerializer());
    kryo.register(Pmat[].class);
    kryo.register(Pmat[][].class);
    kryo.register(PreparedGgsw.class, new PreparedGgswSerializer());
    kryo.register(PreparedGgsw[].class);
    kryo.register(PreparedGgsw[][].class);
    kryo.register(PreparedQuery.class, new PreparedQuerySerializer());
    kryo.register(PreparedQuery[].class);
    kryo.register(Glwe[][][].class);
    kryo.register(FoldSpan.class, new FoldSpanSerializer());
    kryo.register(double[].class);
    kryo.register(long[].class);
    kryo.register(short[].class);
    kryo.register(double[][].class);
    kryo.register(byte[].class);
    kryo.register(byte[][].class);
    kryo.register(int[].class);
    kryo.register(ArrayList.class);
    kryo.register(HashMap.class);
    kryo.register(StatCounter.class);
    kryo.register(QueryBatch.class, new QueryBatchSerializer());
    kryo.register(String[].class);
  }

  /** n, limbs, then the digits as shorts. */
  static final class GlweSerializer extends Serializer<Glwe> {
    @Override
    public void write(Kryo kryo, Output out, Glwe g) {
      out.writeInt(g.n());
      out.writeInt(g.limbs());
      long[] d = g.data();
      for (long v : d) {
        if (v < Short.MIN_VALUE || v > Short.MAX_VALUE) {
          throw new IllegalStateException("GLWE digit " + v + " is not normalized");
        }
        out.writeShort((int) v);
      }
    }

    @Override
    public Glwe read(Kryo kryo, Input in, Class<Glwe> type) {
      int n = in.readInt();
      int limbs = in.readInt();
      long[] d = new long[2 * limbs * n];
      for (int i = 0; i < d.length; i++) {
        d[i] = in.readShort();
      }
      return new Glwe(n, limbs, d);
    }
  }

  /** n, nrows, ncols, then the doubles (in chunks of {@value #CHUNK}). */
  static final class PmatSerializer extends Serializer<Pmat> {
    static final int CHUNK = 1 << 16;

    @Override
    public void write(Kryo kryo, Output out, Pmat m) {
      out.writeInt(m.n());
      out.writeInt(m.nrows());
      out.writeInt(m.ncols());
      double[] buf = new double[Math.min(CHUNK, m.length())];
      for (int i = 0; i < m.length(); i += CHUNK) {
        int len = Math.min(CHUNK, m.length() - i);
        double[] d = len == buf.length ? buf : new double[len];
        m.copyTo(i, d, 0, len);
        out.writeDoubles(d);
      }
    }

    @Override
    public Pmat read(Kryo kryo, Input in, Class<Pmat> type) {
      Pmat m = Pmat.allocate(in.readInt(), in.readInt(), in.readInt());
      for (int i = 0; i < m.length(); i += CHUNK) {
        int len = Math.min(CHUNK, m.length() - i);
        m.copyFrom(in.readDoubles(len), 0, i, len);
      }
      return m;
    }
  }

  /** The prepared matrix. */
  static final class PreparedGgswSerializer extends Serializer<PreparedGgsw> {
    @Override
    public void write(Kryo kryo, Output out, PreparedGgsw g) {
      kryo.writeObject(out, g.matrix());
    }

    @Override
    public PreparedGgsw read(Kryo kryo, Input in, Class<PreparedGgsw> type) {
      return new PreparedGgsw(kryo.readObject(in, Pmat.class));
    }
  }

  static final class PreparedQuerySerializer extends Serializer<PreparedQuery> {
    @Override
    public void write(Kryo kryo, Output out, PreparedQuery q) {
      out.writeString(q.paramsId());
      out.writeInt(q.rows());
      out.writeInt(q.cols());
      kryo.writeObject(out, q.phase1());
      kryo.writeObject(out, q.ggsw());
      Phase1Digits d = q.phase1Digits();
      out.writeInt(d == null ? 0 : d.limbBits());
      out.writeInt(d == null ? 0 : d.limbs());
    }

    @Override
    public PreparedQuery read(Kryo kryo, Input in, Class<PreparedQuery> type) {
      String id = in.readString();
      int rows = in.readInt();
      int cols = in.readInt();
      Pmat p1 = kryo.readObject(in, Pmat.class);
      PreparedGgsw[] g = kryo.readObject(in, PreparedGgsw[].class);
      int bits = in.readInt();
      int limbs = in.readInt();
      return new PreparedQuery(id, rows, cols, p1, g,
          bits == 0 ? null : new Phase1Digits(bits, limbs));
    }
  }

  static final class FoldSpanSerializer extends Serializer<FoldSpan> {
    @Override
    public void write(Kryo kryo, Output out, FoldSpan a) {
      out.writeInt(a.index());
      out.writeInt(a.first());
      out.writeInt(a.end());
      kryo.writeObject(out, a.levels());
      kryo.writeObject(out, a.starts());
      kryo.writeObject(out, a.nodes());
      out.writeLong(a.phase1Nanos());
      out.writeLong(a.phase2Nanos());
      out.writeLong(a.expandNanos());
      out.writeLong(a.foldNanos());
      out.writeString(a.executor());
    }

    @Override
    public FoldSpan read(Kryo kryo, Input in, Class<FoldSpan> type) {
      int index = in.readInt();
      int first = in.readInt();
      int end = in.readInt();
      int[] levels = kryo.readObject(in, int[].class);
      int[] starts = kryo.readObject(in, int[].class);
      Glwe[][][] nodes = kryo.readObject(in, Glwe[][][].class);
      return new FoldSpan(index, first, end, levels, starts, nodes, in.readLong(), in.readLong(),
          in.readLong(), in.readLong(), in.readString());
    }
  }

  /**
   * The batch's number; the kind ids (count, then each as ASCII bytes with its length); the
   * number of queries and per query its kind and its key index; the total bytes of the queries,
   * then each query's length and bytes; the key fingerprints as 32 raw bytes each (never key
   * bytes: they travel in their own broadcasts, {@link KeyBroadcasts}). Reading checks every
   * count and length against its bound ({@link QueryBatch#MAX_QUERIES}, {@link
   * QueryBatch#MAX_KINDS}, {@link QueryBatch#MAX_ID_CHARS}, {@link QueryBatch#MAX_QUERY_BYTES}
   * and the total declared) before allocating for it, so corrupted bytes fail with an {@link
   * IllegalArgumentException} instead of a huge allocation.
   */
  static final class QueryBatchSerializer extends Serializer<QueryBatch> {
    @Override
    public void write(Kryo kryo, Output out, QueryBatch b) {
      out.writeLong(b.number());
      String[] ids = b.expansionIds();
      out.writeVarInt(ids.length, true);
      for (String id : ids) {
        byte[] a = id.getBytes(StandardCharsets.US_ASCII);
        out.writeVarInt(a.length, true);
        out.writeBytes(a);
      }
      int n = b.size();
      out.writeVarInt(n, true);
      for (int i = 0; i < n; i++) {
        out.writeVarInt(b.kindOf()[i], true);
        out.writeVarInt(b.keysOf()[i] + 1, true);
      }
      long total = 0;
      for (byte[] q : b.queries()) {
        total += q.length;
      }
      out.writeVarLong(total, true);
      for (byte[] q : b.queries()) {
        out.writeVarInt(q.length, true);
        out.writeBytes(q);
      }
      String[] digests = b.keyDigests();
      out.writeVarInt(digests.length, true);
      HexFormat hex = HexFormat.of();
      for (String d : digests) {
        out.writeBytes(hex.parseHex(d));
      }
    }

    @Override
    public QueryBatch read(Kryo kryo, Input in, Class<QueryBatch> type) {
      long number = in.readLong();
      String[] ids = new String[checked(in.readVarInt(true), QueryBatch.MAX_KINDS, "kinds")];
      for (int k = 0; k < ids.length; k++) {
        ids[k] = new String(in.readBytes(checked(in.readVarInt(true), QueryBatch.MAX_ID_CHARS,
            "characters of an expansion id")), StandardCharsets.US_ASCII);
      }
      int n = checked(in.readVarInt(true), QueryBatch.MAX_QUERIES, "queries");
      int[] kindOf = new int[n];
      int[] keysOf = new int[n];
      for (int i = 0; i < n; i++) {
        kindOf[i] = in.readVarInt(true);
        keysOf[i] = in.readVarInt(true) - 1;
      }
      long total = in.readVarLong(true);
      if (total < 0 || total > QueryBatch.MAX_QUERY_BYTES) {
        throw new IllegalArgumentException("query batch declares " + total + " bytes of queries"
            + " (at most " + QueryBatch.MAX_QUERY_BYTES + ")");
      }
      byte[][] queries = new byte[n][];
      long left = total;
      for (int i = 0; i < n; i++) {
        int len = in.readVarInt(true);
        if (len < 0 || len > left) {
          throw new IllegalArgumentException("query " + i + " of the batch declares " + len
              + " bytes, more than the " + left + " left of the " + total + " declared");
        }
        left -= len;
        queries[i] = in.readBytes(len);
      }
      HexFormat hex = HexFormat.of();
      String[] digests = new String[checked(in.readVarInt(true), n, "key fingerprints")];
      for (int k = 0; k < digests.length; k++) {
        digests[k] = hex.formatHex(in.readBytes(QueryBatch.DIGEST_BYTES));
      }
      return new QueryBatch(number, ids, kindOf, queries, keysOf, digests);
    }

    private static int checked(int count, int max, String what) {
      if (count < 0 || count > max) {
        throw new IllegalArgumentException("query batch declares " + count + " " + what
            + " (at most " + max + ")");
      }
      return count;
    }
  }
}
