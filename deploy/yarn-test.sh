#!/usr/bin/env bash
# The YARN test (run by .ci/run): spark-submit --master yarn --deploy-mode cluster against a real
# HDFS and YARN on 127.0.0.1 (MiniYarn, from spark-jobs' test class path: a NameNode, a DataNode,
# a ResourceManager and one NodeManager that launches containers as local processes). The driver
# runs in YARN's application master container, the application jar is read from HDFS, and so are
# the queries and the client's evaluation keys; the answers and the summary are written to HDFS.
# The script then copies the answers out and the client decodes and checks every one of them.
# A second job, whose database is missing, must end as a FAILED application (non-zero exit).
#   JPIR_YARN_DIR (default deploy/target/yarn-test), DB (synthetic:16384x1024:7, 16 MiB),
#   EXECUTORS (2), SUBMIT_TIMEOUT (900 s)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
DIR="${JPIR_YARN_DIR:-$ROOT/deploy/target/yarn-test}"
DB="${DB:-synthetic:16384x1024:7}"
EXECUTORS="${EXECUTORS:-2}"
OPTS_FILE="$ROOT/vmp-kernels/target/classes/jpir-jvm.options"
APP_JAR="$ROOT/spark-jobs/target/jpir-spark.jar"
TEST_CP="$ROOT/spark-jobs/target/test-classpath.txt"
export JAVA_HOME="${JAVA_HOME:-$("$ROOT/pir" java-home)}"
JAVA="$JAVA_HOME/bin/java"
fail() { echo "yarn-test: FAILED: $*" >&2; exit 1; }

[ -f "$TEST_CP" ] && [ -d "$ROOT/spark-jobs/target/test-classes" ] && [ -f "$APP_JAR" ] \
  || ./pir build -q >&2 || fail "build failed"
JPIR_CLUSTER_DIR="$DIR/spark" deploy/cluster.sh home
SPARK_HOME="$DIR/spark/spark-home"
ls "$SPARK_HOME/jars" | grep -q '^spark-yarn_' || fail "no spark-yarn jar in $SPARK_HOME/jars"

rm -rf "$DIR/cluster" "$DIR/work" "$DIR/data"
mkdir -p "$DIR/cluster" "$DIR/work" "$DIR/data/q" "$DIR/data/keys" "$DIR/data/client"
mini() { "$JAVA" -Xmx512m -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2-daemon.properties" \
  -cp "$ROOT/spark-jobs/target/test-classes:$(cat "$TEST_CP")" org.jpir.spark.MiniYarn "$@"; }
(cd "$DIR/work" && mini start "$DIR/cluster" 6144 4 > "$DIR/mini-yarn.log" 2>&1) &
MINI=$!
stop_cluster() {
  touch "$DIR/cluster/stop"
  for _ in $(seq 1 60); do kill -0 "$MINI" 2>/dev/null || return 0; sleep 0.5; done
  kill "$MINI" 2>/dev/null || true
}
trap stop_cluster EXIT
for _ in $(seq 1 240); do
  [ -f "$DIR/cluster/ready" ] && break
  kill -0 "$MINI" 2>/dev/null || { tail -n 40 "$DIR/mini-yarn.log" >&2; fail "MiniYarn exited"; }
  sleep 0.5
done
[ -f "$DIR/cluster/ready" ] || { tail -n 40 "$DIR/mini-yarn.log" >&2; fail "HDFS and YARN did not start in 120 s"; }
grep "^mini-yarn:" "$DIR/mini-yarn.log"
export HADOOP_CONF_DIR="$DIR/cluster/conf"

# the client's side, on its own machine: key, evaluation keys, queries (default preset: compact)
CLIENT="$DIR/data/client"
count="${DB#synthetic:}"; count="${count%%x*}"
./pir client keygen --db "$DB" --out "$CLIENT/key.bin"
./pir client evk --db "$DB" --key "$CLIENT/key.bin" --client-id c1 --out "$DIR/data/keys/c1.evk"
./pir client query --db "$DB" --key "$CLIENT/key.bin" --client-id c1 --evk "$DIR/data/keys/c1.evk" \
  --index "0,4242,9000,$((count - 1))" --ids "$CLIENT/ids.map" --out "$DIR/data/q"
mini put "$HADOOP_CONF_DIR" "$DIR/data/q" /pir/q
mini put "$HADOOP_CONF_DIR" "$DIR/data/keys" /pir/keys
mini put "$HADOOP_CONF_DIR" "$APP_JAR" /jars/jpir-spark.jar

submit() { # PirJob args...; the driver runs in YARN's application master container
  timeout "${SUBMIT_TIMEOUT:-900}" "$JAVA" -Xmx512m \
    -Dlog4j2.configurationFile="$SPARK_HOME/conf/log4j2.properties" \
    -cp "$SPARK_HOME/conf:$HADOOP_CONF_DIR:$SPARK_HOME/jars/*" org.apache.spark.deploy.SparkSubmit \
    --master yarn --deploy-mode cluster --name jpir-yarn-test \
    --conf "spark.yarn.jars=local:$SPARK_HOME/jars/*" \
    --conf "spark.yarn.appMasterEnv.JAVA_HOME=$JAVA_HOME" --conf "spark.executorEnv.JAVA_HOME=$JAVA_HOME" \
    --conf "spark.driver.extraJavaOptions=$(cat "$OPTS_FILE")" \
    --conf spark.scheduler.maxRegisteredResourcesWaitingTime=180s --conf spark.yarn.maxAppAttempts=1 \
    --driver-memory 1g --executor-memory 1g --num-executors "$EXECUTORS" --executor-cores 1 \
    --class org.jpir.spark.PirJob hdfs:///jars/jpir-spark.jar "$@"
}
container_logs() {
  for f in $(find "$DIR/work" -path '*container*' -name stderr 2>/dev/null); do
    echo "--- $f" >&2; tail -n 30 "$f" >&2
  done
}

echo "yarn-test: spark-submit --master yarn --deploy-mode cluster ($EXECUTORS executors)"
start=$(date +%s)
if ! submit answer --db "$DB" --queries hdfs:///pir/q --keys hdfs:///pir/keys --out hdfs:///pir/a \
    --summary hdfs:///pir/summary.txt --batch 2 > "$DIR/submit.log" 2>&1; then
  tail -n 30 "$DIR/submit.log" >&2
  container_logs
  fail "the application did not succeed"
fi
echo "yarn-test: application succeeded in $(( $(date +%s) - start )) s (spark-submit waits for it)"
mini get "$HADOOP_CONF_DIR" /pir/a "$DIR/data/a"
mini get "$HADOOP_CONF_DIR" /pir/summary.txt "$DIR/data/summary.txt"
grep -q "^executors=$EXECUTORS .* answered=4 rejected=0" "$DIR/data/summary.txt" \
  || fail "the summary on HDFS does not say $EXECUTORS executors and 4 answered: $(cat "$DIR/data/summary.txt")"
sed 's/^/yarn-test: summary: /' "$DIR/data/summary.txt" | head -n 6
./pir client verify --db "$DB" --key "$CLIENT/key.bin" --client-id c1 --ids "$CLIENT/ids.map" \
  --answers "$DIR/data/a"
driver_logs=$(find "$DIR/work" -path '*container*01_000001*' -name stderr 2>/dev/null | head -n1)
[ -n "$driver_logs" ] && grep -q "DistributedPirServer" "$driver_logs" \
  || fail "the driver did not run in the application master's container"
echo "yarn-test: OK (driver in YARN container $(basename "$(dirname "$driver_logs")"))"

# a failing job fails the application: a database that is not there
echo "yarn-test: a job that fails (no database at hdfs:///pir/missing) must fail the application"
if submit answer --db hdfs:///pir/missing --queries hdfs:///pir/q --out hdfs:///pir/a-missing \
    > "$DIR/submit-missing.log" 2>&1; then
  fail "an answer job without a database reported success"
fi
grep -q "finished with failed status" "$DIR/submit-missing.log" \
  && grep -q "the job ended with exit code" "$DIR/submit-missing.log" \
  || { tail -n 20 "$DIR/submit-missing.log" >&2; fail "spark-submit failed, but not with the application's failed status and the job's exit code"; }
echo "yarn-test: OK (the failing job's application FAILED, spark-submit exited non-zero)"
