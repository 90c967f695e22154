#!/usr/bin/env bash
# Bytes shipped per Spark batch by the network service when the same clients query again and
# again (issue 43 item 3: evaluation keys travel once per key fingerprint, not once per batch),
# measured from Spark's own event log (the block updates of broadcast pieces; deploy/key-shipping.py):
# `./pir serve --port` on a synthetic database, CLIENTS clients with their own keys, each calling
# `./pir client fetch` ROUNDS times for PER_CALL records (one call, one micro-batch, one Spark
# batch of PER_CALL queries). It measures; the records are checked by the tests and
# deploy/cluster-test.sh.
#   deploy/key-shipping.sh                                   local[2]
#   MASTER=spark://127.0.0.1:7077 deploy/key-shipping.sh     a standalone cluster (deploy/cluster.sh start)
# Environment: MASTER, CLIENTS (3), ROUNDS (3), PER_CALL (4), DB (synthetic:16384x1024:7),
# WORK (deploy/target/key-shipping), SERVE_OPTS (more ./pir serve options).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
MASTER="${MASTER:-local[2]}"
CLIENTS="${CLIENTS:-3}"
ROUNDS="${ROUNDS:-3}"
PER_CALL="${PER_CALL:-4}"
DB="${DB:-synthetic:16384x1024:7}"
WORK="${WORK:-$ROOT/deploy/target/key-shipping}"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
fail() { echo "key-shipping: FAILED: $*" >&2; [ -f "$WORK/serve.log" ] && tail -30 "$WORK/serve.log" >&2; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK/events" "$WORK/client"
count="${DB#synthetic:}"; count="${count%%x*}"
opts="-Dspark.master=$MASTER -Dspark.eventLog.enabled=true -Dspark.eventLog.dir=file://$WORK/events"
opts="$opts -Dspark.eventLog.logBlockUpdates.enabled=true -Dspark.eventLog.compress=false"
case "$MASTER" in
  local*) ;;
  *) export SPARK_LOCAL_IP="${SPARK_LOCAL_IP:-127.0.0.1}"
     opts="$opts -Dspark.jars=$ROOT/spark-jobs/target/jpir-spark.jar -Dspark.executor.memory=${JPIR_EXECUTOR_MEMORY:-2g}" ;;
esac
for c in $(seq 1 "$CLIENTS"); do
  ./pir client keygen --db "$DB" --out "$WORK/client/k$c.bin" >/dev/null
  ./pir client evk --db "$DB" --key "$WORK/client/k$c.bin" --client-id "c$c" --out "$WORK/client/c$c.evk" >/dev/null
done
PIR_JAVA_OPTS="${PIR_JAVA_OPTS:-} $opts" PIR_DRIVER_MEMORY="${PIR_DRIVER_MEMORY:-2g}" \
  ./pir serve --port "$PORT" --db "$DB" --batch "$PER_CALL" --micro-batch "$PER_CALL" \
  ${SERVE_OPTS:-} > "$WORK/serve.log" 2>&1 &
spid=$!
trap 'kill -TERM $spid 2>/dev/null || true' EXIT
for _ in $(seq 1 600); do
  grep -q "serve: listening on" "$WORK/serve.log" && break
  kill -0 "$spid" 2>/dev/null || fail "the service exited before listening"
  sleep 0.5
done
grep -q "serve: listening on" "$WORK/serve.log" || fail "the service did not listen within 300 s"
calls=0
for r in $(seq 1 "$ROUNDS"); do
  for c in $(seq 1 "$CLIENTS"); do
    idx=$(python3 -c "import random; print(','.join(str(random.randrange($count)) for _ in range($PER_CALL)))")
    ./pir client fetch --server "127.0.0.1:$PORT" --client-id "c$c" --key "$WORK/client/k$c.bin" \
      --evk "$WORK/client/c$c.evk" --index "$idx" > "$WORK/fetch.out" || fail "client c$c round $r"
    [ "$(wc -l < "$WORK/fetch.out")" -eq "$PER_CALL" ] || fail "client c$c round $r: $PER_CALL records expected"
    calls=$((calls + 1))
  done
done
kill -TERM "$spid"
wait "$spid" || true
trap - EXIT
log=$(find "$WORK/events" -type f -name 'events_*' | sort -t_ -k2 -n | tr '\n' ' ')
echo "key-shipping: $MASTER, $CLIENTS clients x $ROUNDS calls of $PER_CALL queries ($calls calls), revision $(git rev-parse --short HEAD)"
python3 deploy/key-shipping.py $log
python3 deploy/key-shipping.py $log --json > "$WORK/summary.json"
