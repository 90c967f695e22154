#!/usr/bin/env bash
# The query expansion under other settings against the defaults, each in one JVM pinned to one
# core (org.jpir.bench.ExpansionProbe's PROPERTY=VALUE A/B: the default expander and one made
# after setting the property expand in turn, rep by rep); one line per setting into OUT/ab.txt,
# with the CPU, JDK and revision in OUT/README.md.
#
# Usage: benchmarks/expansion-settings.sh OUT MIB RECORD REPS PROPERTY=VALUE...
#        e.g. benchmarks/expansion-settings.sh /tmp/x 1024 3072 300 jpir.expand.group=4
#        HEAP the heap (default 4g), CPU the core (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 5 ] || { sed -n 2,10p "$0" >&2; exit 2; }
OUT=$1; MIB=$2; RECORD=$3; REPS=$4; shift 4
HEAP=${HEAP:-4g}; CPU=${CPU:-1}
mkdir -p "$OUT"
for ab in "$@"; do
  line=$(PIR_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" taskset -c "$CPU" ./pir java \
    org.jpir.bench.ExpansionProbe "$MIB" "$RECORD" "$REPS" "$ab" 2>/dev/null | grep 'median A')
  echo "$MIB MiB, $RECORD B, $REPS reps: $line" | tee -a "$OUT/ab.txt"
done
{
  echo "# Expansion settings against the defaults (ExpansionProbe in-JVM A/B)"
  echo
  echo "CPU: $(lscpu | sed -n 's/^Model name: *//p'), family $(lscpu | sed -n 's/^CPU family: *//p')" \
    "model $(lscpu | sed -n 's/^Model: *//p'); L1d $(lscpu | sed -n 's/^L1d cache: *//p'), L2" \
    "$(lscpu | sed -n 's/^L2 cache: *//p'), L3 $(lscpu | sed -n 's/^L3 cache: *//p');" \
    "revision $(git rev-parse --short HEAD)$(git diff --quiet || echo ' (with local changes)')."
  echo
  echo "A is the default expander, B the one made after setting the property; B / A below 1"
  echo "means the setting is faster. Lines of ab.txt:"
  echo
  sed 's/^/- /' "$OUT/ab.txt"
} > "$OUT/README.md"
