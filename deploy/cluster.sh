#!/usr/bin/env bash
# A Spark standalone cluster on 127.0.0.1 built from the project's own dependency jars (no Spark
# download): lays out a Spark home, starts a Master and Workers, submits jpir jobs, stops exactly
# the processes it started.
#
#   deploy/cluster.sh home                      lay out $JPIR_CLUSTER_DIR/spark-home (jars + conf)
#   deploy/cluster.sh start [workers] [cores] [memory]   default 2 workers x 1 core x 3g
#   deploy/cluster.sh submit <PirJob args...>   spark-submit the app jar to this cluster
#   deploy/cluster.sh executors                 PIDs of the executor JVMs
#   deploy/cluster.sh stop                      stop Workers, then the Master (by recorded PID)
#   deploy/cluster.sh status
# Environment: JAVA_HOME (else the launcher's choice), JPIR_CLUSTER_DIR (default
# deploy/target/cluster), JPIR_MASTER_PORT (7077), JPIR_MASTER_UI_PORT (8080),
# JPIR_WORKER_UI_PORT (8081, +1 per worker), JPIR_DRIVER_MEMORY (2g), JPIR_EXECUTOR_MEMORY (2g),
# SUBMIT_TIMEOUT (900 s).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster}"
HOME_DIR="$DIR/spark-home"
RUN="$DIR/run"
LOGS="$DIR/logs"
PORT="${JPIR_MASTER_PORT:-7077}"
UI_PORT="${JPIR_MASTER_UI_PORT:-8080}"
WUI_PORT="${JPIR_WORKER_UI_PORT:-8081}"
MASTER="spark://127.0.0.1:$PORT"
OPTS_FILE="$ROOT/vmp-kernels/target/classes/jpir-jvm.options"
APP_JAR="$ROOT/spark-jobs/target/jpir-spark.jar"

die() { echo "cluster: $*" >&2; exit 1; }

if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME="$("$ROOT/pir" java-home)"
fi
export JAVA_HOME
JAVA="$JAVA_HOME/bin/java"
export SPARK_HOME="$HOME_DIR" SPARK_LOCAL_IP=127.0.0.1 SPARK_SCALA_VERSION=2.13
export SPARK_CONF_DIR="$HOME_DIR/conf"

cp_spark() { echo "$HOME_DIR/conf:$HOME_DIR/jars/*"; }

cmd_home() {
  # Spark's jars are exactly the build's own class path (target/classpath.txt, written by the
  # reactor build from whatever Maven repository it used), minus the project's modules, which the
  # application jar bundles: no separate Maven resolution, so nothing from an earlier install.
  local cp="$ROOT/spark-jobs/target/classpath.txt" entry n=0
  [ -f "$APP_JAR" ] && [ -f "$OPTS_FILE" ] && [ -f "$cp" ] || (cd "$ROOT" && ./pir build -q >&2) || die "build failed"
  if tr ':' '\n' < "$cp" | grep -v "^$ROOT/" | grep -q '/org/jpir/'; then
    die "the class path in $cp takes jpir modules from a Maven repository, not from this build: $(tr ':' '\n' < "$cp" | grep -v "^$ROOT/" | grep '/org/jpir/' | head -n1)"
  fi
  mkdir -p "$HOME_DIR/jars" "$HOME_DIR/conf" "$RUN" "$LOGS"
  if [ -z "$(ls -A "$HOME_DIR/jars" 2>/dev/null)" ]; then
    echo "cluster: copying Spark's jars from the build's class path into $HOME_DIR/jars" >&2
    while IFS= read -r entry || [ -n "$entry" ]; do
      [ -n "$entry" ] || continue
      case "$entry" in "$ROOT"/*) continue ;; esac
      [ -f "$entry" ] || die "class path entry $entry is missing; rebuild (./pir build)"
      cp "$entry" "$HOME_DIR/jars/" || die "copying jars failed"
      n=$((n + 1))
    done < <(tr ':' '\n' < "$cp")
    [ "$n" -gt 0 ] || die "no jars in $cp"
  fi
  sed "s#@JVM_OPTIONS@#$(cat "$OPTS_FILE")#" "$ROOT/deploy/conf/spark-defaults.conf.template" \
    > "$HOME_DIR/conf/spark-defaults.conf"
  cp "$ROOT/deploy/conf/log4j2.properties" "$ROOT/deploy/conf/log4j2-daemon.properties" "$HOME_DIR/conf/"
  echo "cluster: Spark home ready at $HOME_DIR ($(ls "$HOME_DIR/jars" | wc -l) jars)"
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_log() { # file pattern seconds
  local i
  for ((i = 0; i < $3 * 2; i++)); do
    grep -q "$2" "$1" 2>/dev/null && return 0
    sleep 0.5
  done
  return 1
}

cmd_start() {
  local workers="${1:-2}" cores="${2:-1}" memory="${3:-3g}" w
  [ -d "$HOME_DIR/jars" ] || cmd_home
  mkdir -p "$RUN" "$LOGS"
  alive "$RUN/master.pid" && die "a master is already running (pid $(cat "$RUN/master.pid")); stop it first"
  nohup "$JAVA" @"$OPTS_FILE" -Xmx512m -Dlog4j2.configurationFile="$HOME_DIR/conf/log4j2-daemon.properties" \
    -cp "$(cp_spark)" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port "$PORT" --webui-port "$UI_PORT" > "$LOGS/master.log" 2>&1 &
  echo $! > "$RUN/master.pid"
  wait_log "$LOGS/master.log" "I have been elected leader" 60 || die "master did not start; see $LOGS/master.log"
  for ((w = 1; w <= workers; w++)); do
    mkdir -p "$DIR/work/worker$w"
    nohup "$JAVA" @"$OPTS_FILE" -Xmx512m -Dlog4j2.configurationFile="$HOME_DIR/conf/log4j2-daemon.properties" \
      -cp "$(cp_spark)" org.apache.spark.deploy.worker.Worker \
      --host 127.0.0.1 --cores "$cores" --memory "$memory" --webui-port $((WUI_PORT + w - 1)) \
      --work-dir "$DIR/work/worker$w" "$MASTER" > "$LOGS/worker$w.log" 2>&1 &
    echo $! > "$RUN/worker$w.pid"
  done
  for ((w = 1; w <= workers; w++)); do
    wait_log "$LOGS/worker$w.log" "Successfully registered with master" 60 \
      || die "worker $w did not register; see $LOGS/worker$w.log"
  done
  echo "cluster: master $MASTER (pid $(cat "$RUN/master.pid")), $workers worker(s) x $cores core(s) x $memory"
}

cmd_submit() {
  alive "$RUN/master.pid" || die "no master running; run: deploy/cluster.sh start"
  timeout "${SUBMIT_TIMEOUT:-900}" "$JAVA" @"$OPTS_FILE" -Xmx"${JPIR_DRIVER_MEMORY:-2g}" \
    -Dlog4j2.configurationFile="$HOME_DIR/conf/log4j2.properties" \
    -cp "$(cp_spark)" org.apache.spark.deploy.SparkSubmit --master "$MASTER" \
    --conf spark.driver.memory="${JPIR_DRIVER_MEMORY:-2g}" \
    --conf spark.executor.memory="${JPIR_EXECUTOR_MEMORY:-2g}" \
    --conf spark.scheduler.maxRegisteredResourcesWaitingTime="${JPIR_EXECUTOR_WAIT:-120s}" \
    --class org.jpir.spark.PirJob "$APP_JAR" "$@"
}

cmd_executors() {
  pgrep -f "org.apache.spark.executor.CoarseGrainedExecutorBackend.*$MASTER|CoarseGrainedExecutorBackend.*127.0.0.1" || true
}

cmd_stop() {
  local f pid
  for f in "$RUN"/worker*.pid "$RUN"/master.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
  done
  # executors are children of the workers' process groups; kill any left over from this cluster
  for pid in $(cmd_executors); do kill "$pid" 2>/dev/null || true; done
  echo "cluster: stopped"
}

cmd_status() {
  local f
  for f in "$RUN"/*.pid; do
    [ -f "$f" ] || continue
    if alive "$f"; then echo "$(basename "$f" .pid): running (pid $(cat "$f"))"; else echo "$(basename "$f" .pid): dead"; fi
  done
}

c="${1:-}"; shift || true
case "$c" in
  home) cmd_home ;;
  start) cmd_start "$@" ;;
  submit) cmd_submit "$@" ;;
  executors) cmd_executors ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  *) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
