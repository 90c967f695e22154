#!/usr/bin/env bash
# Scaling experiment on the local standalone cluster: for each database size, executor count and
# batch size, start a cluster of that many 1-core Workers, submit the `answer` job with
# spark-submit, and append one CSV row; then draw the plots. Usage:
#   deploy/scaling.sh [out-dir]     (env: SIZES_MIB="64 256", EXECUTORS="1 2", BATCHES="1 4",
#                                    QUERIES=4, WORKER_MEMORY=6g, PRESET=onionpir-4096-128)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="${1:-$ROOT/deploy/scaling}"
SIZES_MIB="${SIZES_MIB:-64 256}"
EXECUTORS="${EXECUTORS:-1 2}"
BATCHES="${BATCHES:-1 4}"
QUERIES="${QUERIES:-4}"
PRESET="${PRESET:-onionpir-4096-128}"
WORKER_MEMORY="${WORKER_MEMORY:-6g}"
export JPIR_CLUSTER_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster-scaling}"
export JPIR_MASTER_PORT="${JPIR_MASTER_PORT:-7277}" JPIR_MASTER_UI_PORT="${JPIR_MASTER_UI_PORT:-8280}"
export JPIR_WORKER_UI_PORT="${JPIR_WORKER_UI_PORT:-8281}" JPIR_DRIVER_MEMORY="${JPIR_DRIVER_MEMORY:-4g}"
export JPIR_EXECUTOR_MEMORY="${JPIR_EXECUTOR_MEMORY:-5g}"
WORK="$JPIR_CLUSTER_DIR/data"
trap 'deploy/cluster.sh stop >/dev/null 2>&1 || true' EXIT
mkdir -p "$OUT" "$WORK"
CSV="$OUT/scaling.csv"
echo "date,revision,cpu,db_mib,executors,batch,partitions,rows,cols,raw_bytes,answered,seconds,server_seconds,phase1_task_seconds,phase2_task_seconds,gbps,qps,steady_gbps" > "$CSV"
rev=$(git rev-parse --short HEAD)
cpu=$(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2 | xargs)
deploy/cluster.sh home >/dev/null
./pir client keygen --preset "$PRESET" --out "$WORK/key.bin" >/dev/null 2>&1
for mib in $SIZES_MIB; do
  count=$((mib * 1024))
  db="synthetic:${count}x1024:5"
  rm -rf "$WORK/q" "$WORK/ids.map"; mkdir -p "$WORK/q"
  idx=$(for ((i = 0; i < QUERIES; i++)); do echo $(( (i * 7919) % count )); done | paste -sd,)
  ./pir client query --preset "$PRESET" --db "$db" --key "$WORK/key.bin" --index "$idx" \
    --ids "$WORK/ids.map" --out "$WORK/q" >/dev/null 2>&1
  for ex in $EXECUTORS; do
    deploy/cluster.sh start "$ex" 1 "$WORKER_MEMORY" >/dev/null
    for b in $BATCHES; do
      rm -rf "$WORK/a"
      deploy/cluster.sh submit answer --preset "$PRESET" --db "$db" --queries "$WORK/q" --out "$WORK/a" \
        --batch "$b" --partitions $((2 * ex)) --summary "$WORK/summary.txt" > "$WORK/run.log" 2>&1 \
        || { tail -20 "$WORK/run.log"; exit 1; }
      ./pir client verify --preset "$PRESET" --db "$db" --key "$WORK/key.bin" --ids "$WORK/ids.map" --answers "$WORK/a" >/dev/null 2>&1 \
        || { echo "scaling: answers wrong at $mib MiB, $ex executors, batch $b"; exit 1; }
      eval "$(tr ' ' '\n' < "$WORK/summary.txt" | grep = | sed 's/^/S_/')"
      # steady state: every batch but the first (which includes the executors' JIT warm-up)
      steady=$(grep -oE "batch [0-9]+/[0-9]+: [0-9]+ queries answered in [0-9.]+ s" "$WORK/run.log" | tail -n +2 \
        | awk -v raw="$S_raw_bytes" '{q += $3; s += $7} END {if (s > 0) printf "%.5f", raw * q / s / 1e9; else print "nan"}')
      echo "$(date -u +%FT%TZ),$rev,$cpu,$mib,$ex,$b,$S_partitions,$S_rows,$S_cols,$S_raw_bytes,$S_answered,$S_seconds,$S_server_seconds,$S_phase1_task_seconds,$S_phase2_task_seconds,$S_gbps,$S_qps,$steady" | tee -a "$CSV"
    done
    deploy/cluster.sh stop >/dev/null
  done
done
./pir java org.jpir.bench.ScalingPlot "$CSV" "$OUT"
