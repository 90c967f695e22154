#!/usr/bin/env bash
# Regenerates deploy/COST_MODEL.md: measures the per-core rates (CostModel calibrate), measures
# the check points (CostModel point: Spark local mode and local-cluster[E,1,mem] with E = 1, 2, 3,
# a broadcast-dominated and a CMux-fold-dominated point, compact queries), then writes the check
# table and the prediction grid (CostModel report). Usage:
#   deploy/costmodel.sh              measure everything, then report
#   deploy/costmodel.sh --report     only the report, from deploy/costmodel/{rates.properties,points.tsv}
# Environment: POINTS (override the point list, one "master kind mib rows batch" per line),
# BATCHES (batches per point, default 4; the first is not counted), EXECUTOR_MEMORY (1280m),
# KEEP_POINTS=1 (keep the rates and append to points.tsv instead of starting both again).
# local-cluster needs a Spark home: laid out from the build's own jars by deploy/cluster.sh home.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
OUT="$ROOT/deploy/costmodel"
mkdir -p "$OUT"
BATCHES="${BATCHES:-4}"
EXECUTOR_MEMORY="${EXECUTOR_MEMORY:-1280m}"
export PIR_DRIVER_MEMORY="${PIR_DRIVER_MEMORY:-3g}"
POINTS="${POINTS:-local[2] classic 64 0 4
local[2] classic 64 4 2
local[2] classic 64 2 2
local[2] compact 64 0 2
local-cluster[1,1,1536] classic 64 8 2
local-cluster[2,1,1536] classic 64 8 2
local-cluster[3,1,1536] classic 64 8 2
local-cluster[2,1,1536] classic-driver 16 0 4}"
MAIN=org.jpir.spark.bench.CostModel
commands="deploy/costmodel.sh   (BATCHES=$BATCHES, EXECUTOR_MEMORY=$EXECUTOR_MEMORY; points: master kind MiB rows batch)
$POINTS"

if [ "${1:-}" != "--report" ]; then
  ./pir build -q >&2
  export JPIR_CLUSTER_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster}"
  deploy/cluster.sh home >/dev/null
  export SPARK_HOME="$JPIR_CLUSTER_DIR/spark-home" SPARK_SCALA_VERSION=2.13 SPARK_LOCAL_IP=127.0.0.1
  JAVA_HOME="$(./pir java-home)"; export JAVA_HOME
  echo "costmodel: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  [ -n "${KEEP_POINTS:-}" ] || ./pir spark-java "$MAIN" calibrate --out "$OUT/rates.properties"
  [ -n "${KEEP_POINTS:-}" ] || rm -f "$OUT/points.tsv"
  while read -r master kind mib rows batch; do
    [ -n "$master" ] || continue
    echo "costmodel: point $master $kind ${mib} MiB rows=$rows batch=$batch (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    PIR_JAVA_OPTS="${PIR_JAVA_OPTS:-} -Djpir.appJar=$ROOT/examples/target/jpir-examples.jar \
      -Dspark.executor.memory=$EXECUTOR_MEMORY -Dspark.scheduler.maxRegisteredResourcesWaitingTime=300s" \
      ./pir spark-java "$MAIN" point --master "$master" --kind "$kind" --mib "$mib" --rows "$rows" \
      --batch "$batch" --batches "$BATCHES" --out "$OUT/points.tsv"
  done <<< "$POINTS"
fi
./pir spark-java "$MAIN" report --rates "$OUT/rates.properties" --points "$OUT/points.tsv" \
  --out "$ROOT/deploy/COST_MODEL.md" --commands "$commands"
