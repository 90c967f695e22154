package org.jpir.client.net;

import com.google.protobuf.ByteString;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DatabaseConfig;
import org.jpir.api.v1.KeyState;
import org.jpir.api.v1.KeyStatusResponse;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.QueryResult;
import org.jpir.client.KeywordLookup;
import org.jpir.core.client.PirQueryClient;
import org.jpir.core.client.PirQueryClients;
import org.jpir.core.params.Geometry;
import org.jpir.core.params.Params;
import org.jpir.core.params.Presets;
import org.jpir.core.wire.Wire;
import org.jpir.datasets.keyword.KeywordParams;

/**
 * One database of a service, as a client retrieves from it: the {@link PirQueryClient} of its
 * preset and geometry (from the server's config), the client's evaluation keys uploaded once
 * (when its queries are compact and the server does not hold them already), and retrieval by
 * index or, for a keyword table, by keyword through pir-client's {@link KeywordLookup} (every
 * candidate bucket queried, in one call). More queries than the server takes in one call go in
 * several calls. When the server moved to a new data version of the same shape (preset,
 * revision, geometry, keyword table) and no longer answers this client's config id, the client
 * takes the new config and asks those queries again under it, once. Not thread-safe: one per
 * thread.
 */
public final class RemoteDatabase {
  /** The gRPC code number of FAILED_PRECONDITION (an outdated config id among others). */
  static final int FAILED_PRECONDITION = 9;

  private final NetworkPirClient net;
  private final int maxPerCall;
  private final PirQueryClient client;
  private final long answerBytes;
  private DatabaseConfig config;
  private boolean keysChecked;

  RemoteDatabase(NetworkPirClient net, DatabaseConfig config, int maxPerCall, byte[] secretKey,
      SecureRandom random) {
    this.net = net;
    this.config = config;
    this.maxPerCall = Math.max(1, maxPerCall);
    Params p = Presets.byId(config.getPresetId());
    Geometry g = geometry(config.getGeometry());
    this.client = secretKey == null
        ? PirQueryClients.generate(p, g, net.clientId(), random)
        : PirQueryClients.withKey(p, g, secretKey, net::clientId, random);
    this.answerBytes = Wire.maxAnswerBytes(p, g) + 512;
  }

  /** The core geometry of the config's message (checked by its constructor). */
  static Geometry geometry(org.jpir.api.v1.Geometry m) {
    return new Geometry(m.getRecordCount(), m.getRecordSize(), m.getPolyBytes(),
        m.getRecordsPerPoly(), m.getPlanes(), m.getRows(), m.getCols(), m.getPairedTail());
  }

  /** The config this client's queries are made for. */
  public DatabaseConfig config() {
    return config;
  }

  /** The query client (its secret key stays in it). */
  public PirQueryClient client() {
    return client;
  }

  /**
   * Makes sure the server holds this client's current evaluation keys (compact presets): asks
   * for their status once and uploads them when missing or of another fingerprint.
   */
  public void ensureKeys() {
    if (keysChecked || !client.compact()) {
      return;
    }
    byte[] evk = client.evaluationKeysMessage().orElseThrow();
    long mine = Wire.readEvaluationKeys(evk, Presets.compactFor(client.params())).fingerprint();
    KeyStatusResponse s = net.keyStatus(config.getPresetId(), config.getParameterRevision());
    if (s.getState() != KeyState.KEY_STATE_PRESENT || s.getFingerprint() != mine) {
      net.uploadKeys(config.getPresetId(), config.getParameterRevision(), evk,
          client.packingKeyMessage().orElse(null));
    }
    keysChecked = true;
  }

  /**
   * The record at {@code index}.
   *
   * @throws QueryFailedException when the server answered the query with an error
   */
  public byte[] retrieve(long index) {
    return retrieve(new long[] {index}).get(0);
  }

  /**
   * The records at {@code indices}, asked in one call (each query under a fresh request id).
   *
   * @throws QueryFailedException for the first query the server answered with an error
   */
  public List<byte[]> retrieve(long[] indices) {
    List<byte[]> answers = answers(indices);
    List<byte[]> out = new ArrayList<>(indices.length);
    for (int i = 0; i < indices.length; i++) {
      out.add(client.decodeMessage(answers.get(i), indices[i]));
    }
    return out;
  }

  /**
   * The value of {@code key} in this keyword table, or empty when absent; the server sees the
   * same number of queries either way.
   *
   * @throws IllegalArgumentException when the database is not a keyword table
   */
  public Optional<byte[]> lookup(byte[] key) {
    KeywordParams table = KeywordParams.fromManifest(config.getKeywordTableMap())
        .orElseThrow(() -> new IllegalArgumentException("database " + config.getName()
            + " is not a keyword table"));
    KeywordLookup lookup = new KeywordLookup(client, table);
    return lookup.value(key, answers(lookup.buckets(key)));
  }

  /**
   * The answers (wire form) to fresh queries for {@code indices}, in order, in calls of at most
   * the server's bound; queries refused for an outdated config are asked again, once, under the
   * new config when its shape is the same; compact queries refused for the keys the server holds
   * (expired, evicted, deleted) are asked again, once, after the keys are checked and uploaded.
   */
  private List<byte[]> answers(long[] indices) {
    ensureKeys();
    List<byte[]> out = new ArrayList<>(indices.length);
    for (int from = 0; from < indices.length; from += maxPerCall) {
      long[] part = java.util.Arrays.copyOfRange(indices, from,
          Math.min(indices.length, from + maxPerCall));
      QueryResult[] rs = call(part);
      for (int i = 0; i < part.length; i++) {
        if (rs[i].hasError() && outdated(rs[i]) && refreshConfig()) {
          rs = call(part); // all of them again: one config for the whole call
          break;
        }
        if (rs[i].hasError() && keysGone(rs[i])) { // expired, evicted or replaced on the server
          keysChecked = false;
          ensureKeys();
          rs = call(part);
          break;
        }
      }
      for (QueryResult res : rs) {
        if (res.hasError()) {
          throw new QueryFailedException(res.getError().getCode(), res.getError().getMessage(),
              res.getError().getCurrentConfigId());
        }
        out.add(res.getAnswer().getAnswer().toByteArray());
      }
    }
    return out;
  }

  /** A compact query refused for the keys the server holds (none, or other ones). */
  private boolean keysGone(QueryResult r) {
    return client.compact() && r.getError().getCode() == FAILED_PRECONDITION
        && r.getError().getCurrentConfigId().isEmpty();
  }

  private static boolean outdated(QueryResult r) {
    return r.getError().getCode() == FAILED_PRECONDITION
        && !r.getError().getCurrentConfigId().isEmpty();
  }

  /** One call of fresh queries for {@code indices}; the results in order. */
  private QueryResult[] call(long[] indices) {
    List<Query> qs = new ArrayList<>(indices.length);
    for (long i : indices) {
      qs.add(Query.newBuilder().setRequestId(net.newRequestId())
          .setConfigId(config.getConfigId())
          .setQuery(ByteString.copyFrom(client.queryMessage(i))).build());
    }
    AnswerResponse r = net.answer(config.getName(), qs,
        (int) Math.min(Integer.MAX_VALUE - 8L, answerBytes * qs.size() + 4096));
    if (r.getResultsCount() != qs.size()) {
      throw new IllegalStateException("the server sent " + r.getResultsCount() + " results for "
          + qs.size() + " queries");
    }
    QueryResult[] out = new QueryResult[qs.size()];
    for (int i = 0; i < qs.size(); i++) {
      out[i] = r.getResults(i);
      if (!out[i].getRequestId().equals(qs.get(i).getRequestId())) {
        throw new IllegalStateException("result " + i + " is for another request id");
      }
    }
    return out;
  }

  /**
   * Takes the server's current config of this database when only its data version changed
   * (same preset, revision, geometry and keyword table); false when it did not change or its
   * shape did (then this client's queries no longer fit: make a new one).
   */
  private boolean refreshConfig() {
    DatabaseConfig now = NetworkPirClient.find(net.config(), config.getName());
    if (now.getConfigId().equals(config.getConfigId())
        || !now.getPresetId().equals(config.getPresetId())
        || !now.getParameterRevision().equals(config.getParameterRevision())
        || !now.getGeometry().equals(config.getGeometry())
        || !now.getKeywordTableMap().equals(config.getKeywordTableMap())) {
      return false;
    }
    config = now;
    return true;
  }
}
