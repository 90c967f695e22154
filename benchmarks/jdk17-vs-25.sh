#!/usr/bin/env bash
# Every phase on JDK 17 against JDK 25 in fresh JVMs (issue 41, item 5): runs `./pir
# bench-server` (one query at a time, no batches) in FORKS fresh JVMs per JDK, alternating
# 25, 17, 25, 17, ... so both see the same machine, pinned to one CPU, and writes each run's
# JSON plus a summary: per phase, the median of the JDK 25 JVMs and each JDK 17 JVM's ratio to
# it (target: every ratio <= 1.3).
#
# Usage: benchmarks/jdk17-vs-25.sh [MIB] [FORKS] [OUT]   (defaults: 256 10
#        benchmarks/results/jdk17-vs-25-<date>-<mib>mib); JDK25 / JDK17 name the JDK homes,
#        CPU the CPU to pin to (default 1), HEAP the heap (default 6g at 256 MiB, 17g above),
#        WARMUP the untimed queries per JVM (default 40, as the headline: on one pinned core
#        both JDKs are still compiling the expansion after 10 and settle from about the 25th),
#        QUERIES the timed ones (default 9: a median of 3 moved by a third with one slow query),
#        SUMMARY_ONLY=1 rewrites OUT/summary.md from the runs already in OUT.
# The summary also gives each JDK 25 JVM against the JDK 25 median (the control: how far the
# host alone moves one JVM's figures in that sitting).
set -euo pipefail
cd "$(dirname "$0")/.."
MIB=${1:-256}
FORKS=${2:-10}
OUT=${3:-benchmarks/results/jdk17-vs-25-$(date -u +%Y%m%d)-${MIB}mib}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
CPU=${CPU:-1}
WARMUP=${WARMUP:-40}
QUERIES=${QUERIES:-9}
HEAP=${HEAP:-$([ "$MIB" -le 256 ] && echo 6g || echo 17g)}
for j in "$JDK25" "$JDK17"; do
  [ -x "$j/bin/java" ] || { echo "no JDK at $j (set JDK25 / JDK17)" >&2; exit 2; }
done
mkdir -p "$OUT"
for i in $( [ "${SUMMARY_ONLY:-0}" = 1 ] || seq 1 "$FORKS"); do
  for v in 25 17; do
    home=$([ $v = 25 ] && echo "$JDK25" || echo "$JDK17")
    dir="$OUT/jdk$v-$i"
    rm -rf "$dir"
    JAVA_HOME="$home" PIR_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" taskset -c "$CPU" ./pir bench-server \
      --mib "$MIB" --queries "$QUERIES" --warmup "$WARMUP" --batch 0 --stream-mib 256 --no-readme --out "$dir" \
      > "$dir.log" 2>&1 || { echo "jdk$v fork $i failed: $dir.log" >&2; exit 1; }
    echo "jdk$v fork $i: $(grep -h '^| one query' "$dir"/server-*.md)"
  done
done
python3 - "$OUT" "$FORKS" "$QUERIES" "$WARMUP" <<'PY' | tee "$OUT/summary.md"
import glob, json, statistics, sys
out, forks, queries, warmup = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(v):
    rs = []
    for i in range(1, forks + 1):
        f = glob.glob(f"{out}/jdk{v}-{i}/server-*.json")
        rs.append(json.load(open(f[0]))["single"])
    return rs
r25, r17 = load(25), load(17)
first = json.load(open(glob.glob(f"{out}/jdk25-1/server-*.json")[0]))
print(f"# JDK 17 against JDK 25, {first['mib']} MiB, {forks} fresh JVMs each\n")
print(f"{first['cpuDetail']}; revision {first['revision']}; preset {first['preset']},"
      f" geometry {first['geometry']}. Each JVM: the median of {queries} queries after {warmup} warm-ups.\n")
print("| phase | JDK 25 median of JVMs (s) | JDK 17 per JVM / JDK 25 median | worst | within 1.3x"
      " | control: JDK 25 per JVM / its median | within 1.3x |")
print("|---|---:|---|---:|---:|---|---:|")
for key in ("expansionSeconds", "phase1Seconds", "phase2Seconds", "serverSeconds"):
    m = statistics.median(x[key] for x in r25)
    ratios = [x[key] / m for x in r17]
    ok = sum(1 for q in ratios if q <= 1.3)
    own = [x[key] / m for x in r25]
    print(f"| {key[:-7]} | {m:.3f} | {' '.join(f'{q:.2f}' for q in ratios)} | {max(ratios):.2f}"
          f" | {ok} of {forks} | {' '.join(f'{q:.2f}' for q in own)}"
          f" | {sum(1 for q in own if q <= 1.3)} of {forks} |")
PY
