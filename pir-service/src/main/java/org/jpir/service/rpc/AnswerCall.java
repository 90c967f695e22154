package org.jpir.service.rpc;

import com.google.protobuf.ByteString;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.jpir.api.v1.AnswerRequest;
import org.jpir.api.v1.AnswerResponse;
import org.jpir.api.v1.Answered;
import org.jpir.api.v1.Query;
import org.jpir.api.v1.QueryError;
import org.jpir.api.v1.QueryResult;
import org.jpir.core.query.AcceptedQuery;
import org.jpir.core.server.QueryBatch;
import org.jpir.service.admit.QueryAdmission;
import org.jpir.service.admit.Refusal;
import org.jpir.service.batch.MicroBatcher;
import org.jpir.service.batch.Outcome;
import org.jpir.service.batch.RecentAnswers;
import org.jpir.service.batch.Work;
import org.jpir.service.db.ServedDatabase;

/**
 * One {@code Answer} call: each query is checked (request id, config id, bytes) and either
 * refused with its own status, joined to an earlier query of the same client and request id
 * (answered once), or admitted; the admitted ones go to the micro-batcher as one unit. The
 * response lists one result per query, in order, once all are known. A full queue refuses the
 * whole call with {@code RESOURCE_EXHAUSTED} and the trailer {@value #RETRY_AFTER}; a cancelled
 * call or one past its deadline leaves its queries, which are dropped unless another call waits
 * for them.
 */
final class AnswerCall {
  /** The trailer holding a retry hint in milliseconds. */
  static final String RETRY_AFTER = "retry-after-ms";
  static final Metadata.Key<String> RETRY_AFTER_KEY =
      Metadata.Key.of(RETRY_AFTER, Metadata.ASCII_STRING_MARSHALLER);
  private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final Map<String, ServedDatabase> dbs;
  private final QueryAdmission admission;
  private final RecentAnswers recent;
  private final MicroBatcher batcher;
  private final int maxQueries;

  AnswerCall(Map<String, ServedDatabase> dbs, QueryAdmission admission, RecentAnswers recent,
      MicroBatcher batcher, int maxQueries) {
    this.dbs = dbs;
    this.admission = admission;
    this.recent = recent;
    this.batcher = batcher;
    this.maxQueries = maxQueries;
  }

  void run(String client, AnswerRequest req, StreamObserver<AnswerResponse> out) {
    ServedDatabase db = dbs.get(req.getDatabase());
    if (db == null) {
      out.onError(Status.NOT_FOUND.withDescription("no database named '"
          + org.jpir.core.wire.SafeText.escape(req.getDatabase(), 64) + "' is served (GetConfig"
          + " lists them)").asRuntimeException());
      return;
    }
    int n = req.getQueriesCount();
    if (n < 1 || n > maxQueries) {
      out.onError(Status.INVALID_ARGUMENT.withDescription(n + " queries in one call: 1 to "
          + maxQueries + " (the micro-batch size bound)").asRuntimeException());
      return;
    }
    List<CompletableFuture<Outcome>> results = new ArrayList<>(n);
    List<RecentAnswers.Entry> joined = new ArrayList<>();
    List<Work.Item> admitted = new ArrayList<>();
    List<String> admittedIds = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    long now = System.nanoTime();
    for (Query q : req.getQueriesList()) {
      String id = q.getRequestId();
      if (!REQUEST_ID.matcher(id).matches()) {
        results.add(done(Outcome.error(Status.Code.INVALID_ARGUMENT, "request id must be 1 to 64"
            + " characters of [A-Za-z0-9_-]")));
        continue;
      }
      if (!seen.add(id)) {
        results.add(done(Outcome.error(Status.Code.INVALID_ARGUMENT, "request id '" + id
            + "' appears twice in the call")));
        continue;
      }
      byte[] wire = q.getQuery().toByteArray();
      String digest = QueryBatch.sha256(db.name().getBytes(StandardCharsets.UTF_8),
          q.getConfigIdBytes().toByteArray(), wire);
      RecentAnswers.Claim c = recent.claim(client, id, digest);
      if (c.conflict()) {
        results.add(done(Outcome.error(Status.Code.INVALID_ARGUMENT, "request id '" + id
            + "' was used for another query of this client")));
        continue;
      }
      joined.add(c.entry());
      results.add(c.entry().result());
      if (!c.fresh()) {
        continue;
      }
      ServedDatabase.Version v = db.versionFor(q.getConfigId(), now);
      if (v == null) {
        String cur = db.current().configId();
        c.entry().result().complete(Outcome.outdated("config id '"
            + org.jpir.core.wire.SafeText.escape(q.getConfigId(), 64) + "' is not served for"
            + " database " + db.name() + "; the current one is " + cur, cur));
        continue;
      }
      try {
        AcceptedQuery a = admission.accept(db, client, wire);
        admitted.add(new Work.Item(db, v, a, c.entry()));
        admittedIds.add(id);
      } catch (Refusal r) {
        c.entry().result().complete(Outcome.error(r.code(), r.getMessage()));
      }
    }
    if (!admitted.isEmpty()) {
      try {
        batcher.submit(new Work(admitted));
      } catch (MicroBatcher.Refused r) {
        for (int i = 0; i < admitted.size(); i++) {
          recent.forget(client, admittedIds.get(i), admitted.get(i).entry());
          admitted.get(i).entry().result().complete(Outcome.error(Status.Code.UNAVAILABLE,
              r.getMessage()));
        }
        joined.forEach(RecentAnswers.Entry::leave);
        Metadata trailers = new Metadata();
        if (!r.closing()) {
          trailers.put(RETRY_AFTER_KEY, Long.toString(r.retryAfterMillis()));
        }
        out.onError((r.closing() ? Status.UNAVAILABLE : Status.RESOURCE_EXHAUSTED)
            .withDescription(r.getMessage()).asRuntimeException(trailers));
        return;
      }
    }
    if (out instanceof ServerCallStreamObserver<AnswerResponse> sco) {
      // once: the handler, or this thread when the call was cancelled before it was set
      AtomicBoolean left = new AtomicBoolean();
      Runnable leave = () -> {
        if (left.compareAndSet(false, true)) {
          joined.forEach(RecentAnswers.Entry::leave);
        }
      };
      sco.setOnCancelHandler(leave);
      if (sco.isCancelled()) {
        leave.run();
      }
    }
    // the response is built and sent off the micro-batcher's thread, which completes the results
    CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
        .whenCompleteAsync((x, t) -> respond(req, results, out));
  }

  /** One result per query, in order; a call cancelled meanwhile has nobody to tell. */
  private static void respond(AnswerRequest req, List<CompletableFuture<Outcome>> results,
      StreamObserver<AnswerResponse> out) {
    AnswerResponse.Builder b = AnswerResponse.newBuilder();
    for (int i = 0; i < results.size(); i++) {
      b.addResults(result(req.getQueries(i).getRequestId(), results.get(i).join()));
    }
    try {
      out.onNext(b.build());
      out.onCompleted();
    } catch (RuntimeException gone) { // the answers stay in the recent answers for a retry
      return;
    }
  }

  private static CompletableFuture<Outcome> done(Outcome o) {
    return CompletableFuture.completedFuture(o);
  }

  static QueryResult result(String id, Outcome o) {
    QueryResult.Builder r = QueryResult.newBuilder().setRequestId(id);
    if (o.ok()) {
      return r.setAnswer(Answered.newBuilder().setAnswer(ByteString.copyFrom(o.answer()))
          .setDataVersion(o.dataVersion()).setConfigId(o.configId())).build();
    }
    return r.setError(QueryError.newBuilder().setCode(o.code().value())
        .setMessage(o.message()).setCurrentConfigId(o.currentConfigId())).build();
  }
}
