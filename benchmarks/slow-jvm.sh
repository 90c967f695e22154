#!/usr/bin/env bash
# Starts K fresh JVMs per configuration of SlowJvmProbe (phase 1 of a synthetic database, see
# benchmarks/SLOW-JVM.md), configurations interleaved fork by fork so that they share the
# machine's load, and prints each JVM's RESULT line and, per configuration, the fork-to-fork
# spread of the medians (max/min - 1), the page faults per phase-1 call and the spread of phase 1
# relative to a 256 MiB memory read timed in the same rounds (the host's memory bandwidth).
# Usage: benchmarks/slow-jvm.sh [-k forks] [-m mib] [-r rounds] [-c "extra JVM flags"]...
# (no -c: one configuration with the project's JVM options only)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
K=10; MIB=64; ROUNDS=40; CONFIGS=()
while [ $# -gt 0 ]; do
  case "$1" in
    -k) K=$2; shift 2 ;;
    -m) MIB=$2; shift 2 ;;
    -r) ROUNDS=$2; shift 2 ;;
    -c) CONFIGS+=("$2"); shift 2 ;;
    *) echo "slow-jvm.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
[ ${#CONFIGS[@]} -gt 0 ] || CONFIGS=("")
JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
OPTS="$ROOT/vmp-kernels/target/classes/jpir-jvm.options"
JAR="$ROOT/benchmarks/target/benchmarks.jar"
[ -f "$OPTS" ] && [ -f "$JAR" ] || { echo "slow-jvm.sh: build first (mvn -pl benchmarks -am package)" >&2; exit 1; }
echo "# $(date -u +%FT%TZ) $("$JAVA_HOME/bin/java" -version 2>&1 | head -1), git $(git -C "$ROOT" rev-parse --short HEAD), mib=$MIB rounds=$ROUNDS forks=$K"
echo "# cpu: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cpus, load $(cut -d' ' -f1-3 /proc/loadavg); project options: $(cat "$OPTS" | tr '\n' ' ' | grep -o -- '-XX:[^ ]*' | tr '\n' ' ')"
tmp=$(mktemp -d)
for i in $(seq 1 "$K"); do
  for c in "${!CONFIGS[@]}"; do
    # shellcheck disable=SC2086
    line=$("$JAVA_HOME/bin/java" @"$OPTS" -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
      ${CONFIGS[$c]} -cp "$JAR" org.jpir.bench.SlowJvmProbe "$MIB" "$ROUNDS" 2>/dev/null | grep '^RESULT' || echo "RESULT failed")
    echo "[${CONFIGS[$c]:-default}] fork $i $line"
    echo "$line" >> "$tmp/$c"
  done
done
for c in "${!CONFIGS[@]}"; do
  awk -v cfg="${CONFIGS[$c]:-default}" '{for(i=1;i<=NF;i++){split($i,kv,"=");
      if(kv[1]=="phase1_ms")p[NR]=kv[2]; if(kv[1]=="ratio")r[NR]=kv[2]; if(kv[1]=="phase1_after_ms")a[NR]=kv[2];
      if(kv[1]=="faults_first")f[NR]=kv[2]; if(kv[1]=="reused_ms")u[NR]=kv[2]; if(kv[1]=="reused_ratio")v[NR]=kv[2];
      if(kv[1]=="phase1_p10_ms")l[NR]=kv[2]; if(kv[1]=="reused_p10_ms")m[NR]=kv[2];
      if(kv[1]=="stream_ms")s[NR]=kv[2]; if(kv[1]=="stream_ratio")w[NR]=kv[2]}}
    END{pmin=pmax=p[1]; rmin=rmax=r[1]; amin=amax=a[1]; umin=umax=u[1]; vmin=vmax=v[1]; lmin=lmax=l[1]; mmin=mmax=m[1]; fs=0
      for(i=1;i<=NR;i++){if(p[i]<pmin)pmin=p[i]; if(p[i]>pmax)pmax=p[i]; if(r[i]<rmin)rmin=r[i]; if(r[i]>rmax)rmax=r[i];
        if(a[i]<amin)amin=a[i]; if(a[i]>amax)amax=a[i]; if(u[i]<umin)umin=u[i]; if(u[i]>umax)umax=u[i];
        if(v[i]<vmin)vmin=v[i]; if(v[i]>vmax)vmax=v[i]; if(l[i]<lmin)lmin=l[i]; if(l[i]>lmax)lmax=l[i];
        if(m[i]<mmin)mmin=m[i]; if(m[i]>mmax)mmax=m[i]; fs+=f[i]}
      printf "SPREAD [%s] forks=%d phase1 %.3f..%.3f ms (%.1f%%), phase1 after answers %.3f..%.3f ms (%.1f%%), phase1/calibration %.3f..%.3f (%.1f%%), page faults per call %.0f\n",
        cfg, NR, pmin, pmax, 100*(pmax/pmin-1), amin, amax, 100*(amax/amin-1), rmin, rmax, 100*(rmax/rmin-1), fs/NR
      printf "SPREAD [%s] forks=%d scratch reused: phase1 %.3f..%.3f ms (%.1f%%), phase1/calibration %.3f..%.3f (%.1f%%)\n",
        cfg, NR, umin, umax, 100*(umax/umin-1), vmin, vmax, 100*(vmax/vmin-1)
      qmin=qmax=p[1]/u[1]; for(i=1;i<=NR;i++){q=p[i]/u[i]; if(q<qmin)qmin=q; if(q>qmax)qmax=q}
      printf "SPREAD [%s] forks=%d phase1 / scratch-reused pass of the same JVM (load cancels): %.3f..%.3f\n", cfg, NR, qmin, qmax
      printf "SPREAD [%s] forks=%d 10th percentiles: phase1 %.3f..%.3f ms (%.1f%%), scratch reused %.3f..%.3f ms (%.1f%%)\n",
        cfg, NR, lmin, lmax, 100*(lmax/lmin-1), mmin, mmax, 100*(mmax/mmin-1)
      smin=smax=s[1]; wmin=wmax=w[1]; for(i=1;i<=NR;i++){if(s[i]<smin)smin=s[i]; if(s[i]>smax)smax=s[i]; if(w[i]<wmin)wmin=w[i]; if(w[i]>wmax)wmax=w[i]}
      printf "SPREAD [%s] forks=%d memory calibration (256 MiB read) %.3f..%.3f ms (%.1f%%), phase1/memory calibration %.3f..%.3f (%.1f%%)\n",
        cfg, NR, smin, smax, 100*(smax/smin-1), wmin, wmax, 100*(wmax/wmin-1)}' "$tmp/$c"
done
rm -rf "$tmp"
