#!/usr/bin/env bash
# The answer path through Spark against another build (issue 42's check): `./pir demo-compact`
# at 256 MiB of onionpir-2048-compact-128, batches of 4, 8 queries, alternating BASE and this
# tree RUNS times; prints each run's "expansion on executor" line. BASE is a built checkout (a
# git worktree of the merge base); its first pass (expansion on the driver, in builds that still
# have it) warms its JVM with REPS repetitions; this tree runs REPS + 1, its first (the max) being
# its warm-up, so that both medians are the upper median of REPS warm repetitions.
#
# Usage: BASE=/path/to/base benchmarks/ab-demo-compact.sh [RUNS] [OUT] [REPS]
#        (defaults: 3, /tmp/ab, 6)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
OUT=${2:-/tmp/ab}
REPS=${3:-6}
: "${BASE:?BASE names the checkout of the other build}"
mkdir -p "$OUT"
for i in $(seq 1 "$RUNS"); do
  for t in base this; do
    d=$([ $t = base ] && echo "$BASE" || pwd)
    reps=$([ $t = base ] && echo "$REPS" || echo $((REPS + 1)))
    (cd "$d" && ./pir demo-compact --preset onionpir-2048-compact-128 --mib 256 --batch 4 \
      --queries 8 --reps $reps > "$OUT/$t-$i.log" 2>&1)
    echo "$t $i (reps $reps): $(grep -h 'expansion on executor' "$OUT/$t-$i.log" | sed 's/.*median/median/')"
  done
done
