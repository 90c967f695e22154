package org.jpir.service.rpc;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.DeleteKeysRequest;
import org.jpir.api.v1.GetConfigRequest;
import org.jpir.api.v1.GetConfigResponse;
import org.jpir.api.v1.KeyState;
import org.jpir.api.v1.KeyStatusRequest;
import org.jpir.api.v1.KeyStatusResponse;
import org.jpir.api.v1.PirServiceGrpc;
import org.jpir.api.v1.UploadKeysRequest;
import org.jpir.core.params.CompactParams;
import org.jpir.core.params.ParameterRevision;
import org.jpir.core.wire.SafeText;
import org.jpir.core.wire.Wire;
import org.jpir.service.admit.QueryAdmission;
import org.jpir.service.batch.MicroBatcher;
import org.jpir.service.batch.RecentAnswers;
import org.jpir.service.db.ServedDatabase;
import org.jpir.service.keys.KeyInfo;
import org.jpir.service.keys.ServiceKeys;

/**
 * The {@code jpir.v1.PirService} calls over the served databases, the key store and the
 * micro-batcher. The calling client is the one {@link ClientIdInterceptor} (or its replacement)
 * put into the call's context; key calls act on that client's keys only, and keys or queries
 * naming another client are {@code PERMISSION_DENIED}. Thread-safe.
 */
public final class PirServiceImpl extends PirServiceGrpc.PirServiceImplBase {
  private final Map<String, ServedDatabase> dbs = new LinkedHashMap<>();
  private final Map<String, CompactParams> presets = new LinkedHashMap<>();
  private final ServiceKeys keys;
  private final AnswerCall answers;
  private final int maxQueries;
  private final int maxInbound;

  /**
   * The service of {@code databases} (distinct names), answering through {@code batcher} with
   * calls of at most {@code maxQueries} queries and {@code recent} for retried request ids.
   */
  public PirServiceImpl(List<ServedDatabase> databases, ServiceKeys keys, MicroBatcher batcher,
      RecentAnswers recent, int maxQueries) {
    for (ServedDatabase db : databases) {
      if (dbs.put(db.name(), db) != null) {
        throw new IllegalArgumentException("two databases named " + db.name());
      }
      if (db.compact() != null) {
        presets.put(db.compact().id(), db.compact());
      }
    }
    this.keys = keys;
    this.maxQueries = maxQueries;
    this.maxInbound = Limits.maxInboundBytes(dbs.values(), maxQueries);
    this.answers = new AnswerCall(Map.copyOf(dbs), new QueryAdmission(keys), recent, batcher,
        maxQueries);
  }

  /** The current config of every database asked for (all when none is named); never fails. */
  @Override
  public void getConfig(GetConfigRequest req, StreamObserver<GetConfigResponse> out) {
    GetConfigResponse.Builder b = GetConfigResponse.newBuilder()
        .setMaxMessageBytes(maxInbound).setMaxQueriesPerCall(maxQueries);
    for (ServedDatabase db : dbs.values()) {
      if (req.getDatabasesCount() == 0 || req.getDatabasesList().contains(db.name())) {
        b.addDatabases(ConfigMessages.of(db));
      }
    }
    out.onNext(b.build());
    out.onCompleted();
  }

  /**
   * Stores the calling client's keys for a compact preset served: refused before they are
   * prepared when larger than the preset's largest valid keys, malformed ({@code
   * INVALID_ARGUMENT}) or of another client ({@code PERMISSION_DENIED}).
   */
  @Override
  public void uploadKeys(UploadKeysRequest req, StreamObserver<KeyStatusResponse> out) {
    String client = ClientIdInterceptor.current();
    CompactParams cp = preset(req.getPresetId(), req.getParameterRevision(), out);
    if (cp == null) {
      return;
    }
    byte[] evk = req.getEvaluationKeys().toByteArray();
    String owner;
    try {
      if (evk.length > Wire.maxEvaluationKeysBytes(cp)) {
        throw new IllegalArgumentException("evaluation keys of " + evk.length + " bytes: preset "
            + cp.id() + " takes at most " + Wire.maxEvaluationKeysBytes(cp));
      }
      owner = Wire.readEvaluationKeys(evk, cp).clientId();
    } catch (IllegalArgumentException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription("evaluation keys refused: "
          + SafeText.escape(e.getMessage(), 300)).asRuntimeException());
      return;
    }
    if (!owner.equals(client)) {
      out.onError(Status.PERMISSION_DENIED.withDescription("the evaluation keys belong to client"
          + " '" + owner + "', but the call is of client '" + client + "'").asRuntimeException());
      return;
    }
    try {
      reply(keys.upload(client, cp, evk, req.getPackingKey().toByteArray()), out);
    } catch (IllegalArgumentException e) {
      out.onError(Status.INVALID_ARGUMENT.withDescription("evaluation keys refused: "
          + SafeText.escape(e.getMessage(), 300)).asRuntimeException());
    }
  }

  /** Forgets the calling client's keys for a compact preset served. */
  @Override
  public void deleteKeys(DeleteKeysRequest req, StreamObserver<KeyStatusResponse> out) {
    CompactParams cp = preset(req.getPresetId(), req.getParameterRevision(), out);
    if (cp != null) {
      reply(keys.delete(ClientIdInterceptor.current(), cp), out);
    }
  }

  /** Whether the calling client's keys for a compact preset are held, and their fingerprint. */
  @Override
  public void keyStatus(KeyStatusRequest req, StreamObserver<KeyStatusResponse> out) {
    CompactParams cp = preset(req.getPresetId(), req.getParameterRevision(), out);
    if (cp != null) {
      reply(keys.status(ClientIdInterceptor.current(), cp), out);
    }
  }

  /** One result per query, in order ({@link AnswerCall}). */
  @Override
  public void answer(AnswerRequest req, StreamObserver<AnswerResponse> out) {
    answers.run(ClientIdInterceptor.current(), req, out);
  }

  /** The compact preset served under {@code id} at {@code revision}, else an error sent. */
  private CompactParams preset(String id, String revision, StreamObserver<?> out) {
    CompactParams cp = presets.get(id);
    if (cp == null) {
      out.onError(Status.NOT_FOUND.withDescription("preset '" + SafeText.escape(id, 64)
          + "' takes no evaluation keys here; compact presets served: " + presets.keySet())
          .asRuntimeException());
      return null;
    }
    String have = ParameterRevision.hex(ParameterRevision.of(cp));
    if (!revision.isEmpty() && !revision.equals(have)) {
      out.onError(Status.FAILED_PRECONDITION.withDescription("preset " + id + " is served at"
          + " parameter revision " + have + ", not '" + SafeText.escape(revision, 32) + "'")
          .asRuntimeException());
      return null;
    }
    return cp;
  }

  private static void reply(KeyInfo k, StreamObserver<KeyStatusResponse> out) {
    out.onNext(KeyStatusResponse.newBuilder().setClientId(k.clientId()).setPresetId(k.presetId())
        .setState(k.present() ? KeyState.KEY_STATE_PRESENT : KeyState.KEY_STATE_MISSING)
        .setFingerprint(k.fingerprint()).setExpiresAtMillis(k.expiresAtMillis()).build());
    out.onCompleted();
  }

  /** The largest message accepted ({@link Limits#maxInboundBytes}). */
  public int maxInboundBytes() {
    return maxInbound;
  }
}
