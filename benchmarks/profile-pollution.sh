#!/usr/bin/env bash
# The FFT at N = 2048 in fresh JVMs, clean or after the 256- and 512-bit ceiling loops ran
# (org.jpir.bench.ProfilePollution), with the project's options (-XX:TypeProfileLevel=222) and
# with the JVM's default (111), on JDK 25 and JDK 17, REPS JVMs each; prints a Markdown table of
# every JVM's fft / ifft microseconds per call.
#
# Usage: benchmarks/profile-pollution.sh [REPS]   (default 3); JDK25 / JDK17 name the JDK homes,
#        CPU the CPU to pin to (default 1).
set -euo pipefail
cd "$(dirname "$0")/.."
REPS=${1:-3}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
JDK17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
CPU=${CPU:-1}
echo "| JDK | type profiles | mode | fft / ifft (us per call), one JVM each |"
echo "|---|---|---|---|"
for home in "$JDK25" "$JDK17"; do
  for level in 222 111; do
    for mode in clean pollute; do
      cells=()
      for _ in $(seq 1 "$REPS"); do
        line=$(JAVA_HOME="$home" PIR_JAVA_OPTS="-XX:TypeProfileLevel=$level" taskset -c "$CPU" \
          ./pir java org.jpir.bench.ProfilePollution "$mode" 2>/dev/null | grep 'copy+fft')
        v=$(sed -n 's/.*(java \(.*\))/\1/p' <<<"$line")
        cells+=("$(sed -n 's/.*copy+fft \([0-9.]*\) us, copy+ifft \([0-9.]*\) us.*/\1 \/ \2/p' <<<"$line")")
      done
      echo "| $v | $level$([ $level = 222 ] && echo ' (project)' || echo ' (JVM default)') | $mode | $(IFS=';'; echo "${cells[*]}" | sed 's/;/; /g') |"
    done
  done
done
