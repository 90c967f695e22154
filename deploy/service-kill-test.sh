#!/usr/bin/env bash
# The network service on a standalone cluster, under load while an executor is killed (issue 43
# item 7; run 6 of deploy/cluster-test.sh, which passes its cluster in MASTER; by hand, without
# MASTER, it starts a cluster of its own: 2 workers x 1 core x 2g, and stops it after):
#   `./pir serve --port` against the master (2 executors, 4 partitions, micro-batches of 8, Spark
#   batches of 2); CLIENTS concurrent clients (org.jpir.client.tools.FetchCheck: each its own id
#   and keys, uploaded by its first call; calls of 2 random records for LOAD_SECONDS; every record
#   compared with the generator's); one executor killed with kill -9 once the clients' third
#   micro-batch is answered. It passes when every query the clients sent was answered exactly,
#   no call failed, and the service answered each query once: its micro-batch log lines and
#   jpir_queries_answered_total add up to the queries sent, none dropped, no per-query error.
#   The key broadcasts are bounded below the clients' keys (spark.jpir.keyBroadcastBytes=1m, one
#   client's at N = 2048), so keys are evicted and broadcast again under load, and the executor
#   that replaces the killed one fetches the keys it needs. Prints the broadcast bytes per batch.
# Environment: MASTER (spark://host:port of a running cluster started by deploy/cluster.sh with
# the same JPIR_CLUSTER_DIR), DB (synthetic:16384x1024:7), CLIENTS (3), LOAD_SECONDS (30),
# WORK (deploy/target/service-kill-test).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DB="${DB:-synthetic:16384x1024:7}"
CLIENTS="${CLIENTS:-3}"
LOAD_SECONDS="${LOAD_SECONDS:-30}"
WORK="${WORK:-$ROOT/deploy/target/service-kill-test}"
fail() { echo "service-kill-test: FAILED: $*" >&2; [ -f "$WORK/serve.log" ] && tail -40 "$WORK/serve.log" >&2; exit 1; }
freeport() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
[ -f spark-jobs/target/jpir-spark.jar ] && [ -f pir-client/target/jpir-client.jar ] || ./pir build -q
JAVA_HOME="${JAVA_HOME:-$(./pir java-home)}"; export JAVA_HOME
own=""
if [ -z "${MASTER:-}" ]; then
  export JPIR_CLUSTER_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/service-kill-cluster}"
  export JPIR_MASTER_PORT="${JPIR_MASTER_PORT:-7377}" JPIR_MASTER_UI_PORT="${JPIR_MASTER_UI_PORT:-8380}"
  export JPIR_WORKER_UI_PORT="${JPIR_WORKER_UI_PORT:-8381}"
  MASTER="spark://127.0.0.1:$JPIR_MASTER_PORT"
  deploy/cluster.sh home
  deploy/cluster.sh start 2 1 2g
  own=1
fi
RUN_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster}/run"
rm -rf "$WORK"; mkdir -p "$WORK"
PORT=$(freeport); MPORT=$(freeport)
export SPARK_LOCAL_IP=127.0.0.1
PIR_JAVA_OPTS="${PIR_JAVA_OPTS:-} -Dspark.master=$MASTER -Dspark.jars=$ROOT/spark-jobs/target/jpir-spark.jar \
 -Dspark.executor.memory=${JPIR_EXECUTOR_MEMORY:-2g} -Dspark.jpir.keyBroadcastBytes=1m" \
PIR_DRIVER_MEMORY="${PIR_DRIVER_MEMORY:-2g}" ./pir serve --port "$PORT" --metrics-port "$MPORT" \
  --db "$DB" --batch 2 --micro-batch 8 --partitions 4 > "$WORK/serve.log" 2>&1 &
spid=$!
cleanup() {
  kill -TERM "$spid" 2>/dev/null || true
  [ -n "${lpid:-}" ] && kill "$lpid" 2>/dev/null || true
  [ -n "$own" ] && deploy/cluster.sh stop >/dev/null 2>&1 || true
}
trap cleanup EXIT
for _ in $(seq 1 600); do
  grep -q "serve: listening on" "$WORK/serve.log" && break
  kill -0 "$spid" 2>/dev/null || fail "the service exited before listening"
  sleep 0.5
done
grep -q "serve: listening on" "$WORK/serve.log" || fail "the service did not listen within 300 s"
batches() { grep -c "service: micro-batch [0-9]*:" "$WORK/serve.log" || true; }
t0=$(date +%s)
"$JAVA_HOME/bin/java" @vmp-kernels/target/classes/jpir-jvm.options \
  -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
  -cp "pir-client/target/jpir-client.jar:$(cat pir-client/target/classpath.txt)" \
  org.jpir.client.tools.FetchCheck --server "127.0.0.1:$PORT" --db "$DB" --clients "$CLIENTS" \
  --seconds "$LOAD_SECONDS" --per-call 2 > "$WORK/load.out" 2>&1 &
lpid=$!
first_ours() { # an executor this cluster's workers started (a descendant), not another cluster's
  local pid p w i
  for pid in $(pgrep -f CoarseGrainedExecutorBackend || true); do
    p=$pid
    for i in 1 2 3 4 5; do
      p=$(awk '{ print $4 }' "/proc/$p/stat" 2>/dev/null || echo 1)
      for w in "$RUN_DIR"/worker*.pid; do
        [ -f "$w" ] && [ "$p" = "$(cat "$w")" ] && { echo "$pid"; return 0; }
      done
      [ "$p" -gt 1 ] || break
    done
  done
}
victim=""
for _ in $(seq 1 600); do
  if [ "$(batches)" -ge 3 ]; then
    victim=$(first_ours)
    break
  fi
  kill -0 "$lpid" 2>/dev/null || break
  sleep 0.2
done
[ -n "$victim" ] || { cat "$WORK/load.out"; fail "no executor to kill while the load ran"; }
kill -9 "$victim"
t_kill=$(date +%s)
echo "service-kill-test: killed executor pid $victim $((t_kill - t0)) s into the load (after $(batches) micro-batches)"
status=0
wait "$lpid" || status=$?
lpid=""
t_end=$(date +%s)
cat "$WORK/load.out" | grep -v "INFO\|WARNING" || true
metrics=$(curl -s "http://127.0.0.1:$MPORT/metrics" || python3 -c "import urllib.request,sys; sys.stdout.write(urllib.request.urlopen('http://127.0.0.1:$MPORT/metrics').read().decode())")
metric() { awk -v n="$1" '$1 == n || index($1, n "{") == 1 { s += $NF } END { printf "%d", s }' <<<"$metrics"; }
kill -TERM "$spid"
wait "$spid" || true
grep -q "serve: stopping" "$WORK/serve.log" || fail "no graceful stop"
[ "$status" -eq 0 ] || fail "the clients saw a failed call or a wrong record"
line=$(grep "^fetch-check:" "$WORK/load.out")
sent=$(sed -n 's/.* \([0-9]*\) queries sent.*/\1/p' <<<"$line")
logged=$(sed -n 's/.*service: micro-batch [0-9]*: \([0-9]*\) queries of.*/\1/p' "$WORK/serve.log" | awk '{ s += $1 } END { print s + 0 }')
dropped=$(sed -n 's/.*answered in [0-9.]* s; \([0-9]*\) dropped.*/\1/p' "$WORK/serve.log" | awk '{ s += $1 } END { print s + 0 }')
answered=$(metric jpir_queries_answered_total)
errors=$(metric jpir_query_errors_total)
sparkb=$(metric jpir_spark_batches_total)
written=$(metric jpir_broadcast_bytes_total{side=\"written\"})
fetched=$(metric jpir_broadcast_bytes_total{side=\"fetched\"})
grep -E "Lost executor|placement:" "$WORK/serve.log" | head -n 5 || true
echo "service-kill-test: $sent queries sent; the service answered $answered ($logged in its micro-batch lines, $dropped dropped, $errors per-query errors) in $sparkb Spark batches; load $((t_end - t0)) s, the last call answered $((t_end - t_kill)) s after the kill"
echo "service-kill-test: broadcast per Spark batch: $((written / (sparkb > 0 ? sparkb : 1) / 1024)) KiB written, $((fetched / (sparkb > 0 ? sparkb : 1) / 1024)) KiB fetched by executors (keys bounded at 1 MiB, $CLIENTS clients)"
[ "$sent" -gt 0 ] || fail "no query sent"
[ "$answered" -eq "$sent" ] || fail "the service answered $answered queries for $sent sent"
[ "$logged" -eq "$sent" ] || fail "the micro-batch lines count $logged queries for $sent sent"
[ "$dropped" -eq 0 ] && [ "$errors" -eq 0 ] || fail "$dropped dropped, $errors per-query errors"
grep -q "Lost executor\|lost executor\|ExecutorLost\|executor .* lost" "$WORK/serve.log" \
  || echo "service-kill-test: (the driver logged no executor loss at WARN)"
echo "service-kill-test: OK"
