#!/usr/bin/env bash
# The query expansion of this tree against another built worktree (BASE), in alternating fresh
# JVMs pinned to one core (org.jpir.bench.ExpansionProbe: median of REPS expansions, and of the
# trace tree alone), PAIRS times; prints one line per JVM and the medians of each side.
#
# Usage: BASE=/path/to/built/worktree benchmarks/expansion-ab.sh [PAIRS [MIB [RECORD [REPS]]]]
#        (defaults 5, 1024, 3072, 60); CPU the core to pin to (default 1). Build both first
#        (mvn -B -q package -DskipTests); the base must have the ExpansionProbe class, or set
#        PROBE_CLASSES to a directory holding only its class (put first on the base's class path).
set -euo pipefail
cd "$(dirname "$0")/.."
: "${BASE:?set BASE to a built worktree to compare against}"
PAIRS=${1:-5}; MIB=${2:-1024}; RECORD=${3:-3072}; REPS=${4:-60}; CPU=${CPU:-1}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
OPTS=vmp-kernels/target/classes/jpir-jvm.options
run() { # $1 = class path
  taskset -c "$CPU" "$JAVA" @"$OPTS" -cp "$1" org.jpir.bench.ExpansionProbe "$MIB" "$RECORD" \
    "$REPS" 2>/dev/null | grep 'expansion median'
}
this=(); base=(); tthis=(); tbase=()
for i in $(seq 1 "$PAIRS"); do
  for side in base this; do
    if [ $side = this ]; then cp=benchmarks/target/benchmarks.jar; else
      cp="${PROBE_CLASSES:+$PROBE_CLASSES:}$BASE/benchmarks/target/benchmarks.jar"; fi
    line=$(run "$cp"); echo "$side $i: $line"
    e=$(sed -n 's/.*expansion median \([0-9.]*\) ms.*/\1/p' <<<"$line")
    tr=$(sed -n 's/.*tree of [0-9]* slots median \([0-9.]*\) ms.*/\1/p' <<<"$line")
    if [ $side = this ]; then this+=("$e"); tthis+=("$tr"); else base+=("$e"); tbase+=("$tr"); fi
  done
done
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
echo "medians over $PAIRS JVMs each: expansion this $(med "${this[@]}") ms, base $(med "${base[@]}") ms;" \
  "trace tree this $(med "${tthis[@]}") ms, base $(med "${tbase[@]}") ms"
