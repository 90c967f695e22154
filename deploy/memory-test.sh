#!/usr/bin/env bash
# Bounded memory: one `answer` job (Spark local mode) over many queries with a small heap; every
# answer must decode exactly, and the job prints its heap high-water mark.
#   deploy/memory-test.sh                        CI size: 60 queries, 64 MiB, 1536m heap
#   QUERIES=200 MIB=256 HEAP=3g deploy/memory-test.sh   the full target
# Environment: QUERIES, MIB, HEAP, BATCH (4), PRESET (onionpir-4096-128), WORK (deploy/target/memory-test),
# FULL_GC=1 (a full collection at each batch end, to print the live heap between batches; slower).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
QUERIES="${QUERIES:-60}"
MIB="${MIB:-64}"
HEAP="${HEAP:-1536m}"
BATCH="${BATCH:-4}"
PRESET="${PRESET:-onionpir-4096-128}"
WORK="${WORK:-$ROOT/deploy/target/memory-test}"
DB="synthetic:$((MIB * 1024))x1024:11"
CLIENT="$WORK/client"
rm -rf "$WORK"; mkdir -p "$WORK/q" "$CLIENT"
./pir client keygen --preset "$PRESET" --out "$CLIENT/key.bin" >/dev/null
./pir client query --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --random "$QUERIES" \
  --ids "$CLIENT/ids.map" --out "$WORK/q"
echo "memory-test: $QUERIES queries ($(du -sh "$WORK/q" | cut -f1)) of a $MIB MiB database, batches of $BATCH, heap $HEAP"
start=$(date +%s)
PIR_JAVA_OPTS="${PIR_JAVA_OPTS:-} $([ "${FULL_GC:-0}" = 1 ] && echo -Djpir.heapWatch.fullGc=true)" \
PIR_DRIVER_MEMORY="$HEAP" ./pir answer --preset "$PRESET" --db "$DB" --queries "$WORK/q" --out "$WORK/a" \
  --batch "$BATCH" > "$WORK/answer.log" 2>&1 || { tail -40 "$WORK/answer.log"; echo "memory-test: FAILED: the answer job failed"; exit 1; }
grep -E "partitions:|memory plan|answer:" "$WORK/answer.log"
echo "memory-test: answer job took $(( $(date +%s) - start )) s"
./pir client verify --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --ids "$CLIENT/ids.map" --answers "$WORK/a" \
  | tail -n1
grep -q "answer: $QUERIES answered" "$WORK/answer.log" || { echo "memory-test: FAILED: not every query answered"; exit 1; }
rm -rf "$WORK/q"
echo "memory-test: OK"
