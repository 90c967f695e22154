#!/usr/bin/env bash
# The cluster test (run by .ci/run): a standalone Master and two Workers on 127.0.0.1, the
# `answer` job submitted with spark-submit, every answer decoded and checked against the
# database; then a second run during which one executor process is killed after the first batch,
# which must still complete with exact answers. Stops the cluster on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export JPIR_CLUSTER_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster-test}"
export JPIR_MASTER_PORT="${JPIR_MASTER_PORT:-7177}" JPIR_MASTER_UI_PORT="${JPIR_MASTER_UI_PORT:-8180}"
export JPIR_WORKER_UI_PORT="${JPIR_WORKER_UI_PORT:-8181}"
PRESET="${PRESET:-onionpir-4096-128}"
DB="${DB:-synthetic:16384x1024:7}"          # 16 MiB
WORK="$JPIR_CLUSTER_DIR/data"
trap 'deploy/cluster.sh stop >/dev/null 2>&1 || true' EXIT

deploy/cluster.sh home
deploy/cluster.sh start 2 1 2g
rm -rf "$WORK"; mkdir -p "$WORK/q1" "$WORK/q2"
./pir client keygen --preset "$PRESET" --out "$WORK/key.bin"
count="${DB#synthetic:}"; count="${count%%x*}"
for i in 0 1 777 $((count - 1)); do
  ./pir client query --preset "$PRESET" --db "$DB" --key "$WORK/key.bin" --index "$i" --out "$WORK/q1/$i.query" >/dev/null
done
for i in 3 5000 9000 12000 15000 $((count - 2)); do
  ./pir client query --preset "$PRESET" --db "$DB" --key "$WORK/key.bin" --index "$i" --out "$WORK/q2/$i.query" >/dev/null
done

echo "cluster-test: run 1: answer job on the cluster"
deploy/cluster.sh submit answer --preset "$PRESET" --db "$DB" --queries "$WORK/q1" --out "$WORK/a1" --batch 2 --partitions 4
./pir client verify --preset "$PRESET" --db "$DB" --key "$WORK/key.bin" --answers "$WORK/a1"

echo "cluster-test: run 2: kill one executor after the first batch"
deploy/cluster.sh submit answer --preset "$PRESET" --db "$DB" --queries "$WORK/q2" --out "$WORK/a2" --batch 2 --partitions 4 \
  > "$WORK/run2.log" 2>&1 &
submit=$!
killed=""
for _ in $(seq 1 600); do
  if grep -q "batch 1/3" "$WORK/run2.log" 2>/dev/null; then
    victim=$(deploy/cluster.sh executors | head -n1)
    if [ -n "$victim" ]; then kill -9 "$victim"; killed=$victim; fi
    break
  fi
  kill -0 $submit 2>/dev/null || break
  sleep 0.2
done
wait $submit || { cat "$WORK/run2.log"; echo "cluster-test: run 2 FAILED"; exit 1; }
grep -E "batch|answer:" "$WORK/run2.log" || true
[ -n "$killed" ] || { echo "cluster-test: no executor was killed (job ended too early?)"; exit 1; }
echo "cluster-test: killed executor pid $killed during run 2"
./pir client verify --preset "$PRESET" --db "$DB" --key "$WORK/key.bin" --answers "$WORK/a2"
echo "cluster-test: OK"
