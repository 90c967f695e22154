#!/usr/bin/env bash
# jpir launcher: finds a JDK (prefers 25), builds what is missing, runs a command.
# Usage: ./pir help
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# Commands run in the caller's directory (relative paths are the caller's); Maven gets -f.

die() { echo "pir: $*" >&2; exit 1; }

java_major() { # $1 = java binary; prints the feature version or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1
}

find_jdk() {
  local cand v
  if [ -n "${JAVA_HOME:-}" ]; then
    [ -x "$JAVA_HOME/bin/java" ] || die "JAVA_HOME=$JAVA_HOME has no bin/java"
    v=$(java_major "$JAVA_HOME/bin/java")
    [ -n "$v" ] && [ "$v" -ge 17 ] || die "JAVA_HOME=$JAVA_HOME is Java '${v:-unknown}'; jpir needs 17 or later (25 preferred)"
    echo "$JAVA_HOME"; return
  fi
  for cand in /usr/lib/jvm/*25* /usr/lib/jvm/*-17-* /usr/lib/jvm/*17*; do
    if [ -x "$cand/bin/java" ] && [ -x "$cand/bin/javac" ]; then
      v=$(java_major "$cand/bin/java")
      if [ -n "$v" ] && [ "$v" -ge 17 ]; then echo "$cand"; return; fi
    fi
  done
  if command -v javac >/dev/null 2>&1; then
    cand=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    v=$(java_major "$cand/bin/java")
    if [ -n "$v" ] && [ "$v" -ge 17 ]; then echo "$cand"; return; fi
  fi
  die "no JDK 17 or later found: set JAVA_HOME, or install Temurin 25 under /usr/lib/jvm (Java 17 also works)"
}

# Commands other than help need a JDK; help works without one.
if [ "${1:-help}" != help ] && [ "${1:-}" != -h ] && [ "${1:-}" != --help ]; then
  JAVA_HOME="$(find_jdk)"; export JAVA_HOME
  JAVA="$JAVA_HOME/bin/java"
fi
OPTS_FILE="$ROOT/vmp-kernels/target/classes/jpir-jvm.options"
BENCH_JAR="$ROOT/benchmarks/target/benchmarks.jar"
SPARK_JAR="$ROOT/spark-jobs/target/jpir-spark.jar"
SPARK_CP="$ROOT/spark-jobs/target/classpath.txt"
EXAMPLES_JAR="$ROOT/examples/target/jpir-examples.jar"
CLIENT_JAR="$ROOT/pir-client/target/jpir-client.jar"
CLIENT_CP="$ROOT/pir-client/target/classpath.txt"
SERVICE_CP="$ROOT/pir-service/target/classpath.txt"
SERVICE_RUNTIME_CP="$ROOT/pir-service/target/runtime-classpath.txt"
SERVICE_CLASSES="$ROOT/pir-service/target/classes"
MVN="${MVN:-mvn}"

need_mvn() {
  command -v "$MVN" >/dev/null 2>&1 || die "Maven ('mvn') is not on PATH; install it (Debian: apt-get install maven)"
}

# Rebuild when a jar is missing or any pom/source is newer than it.
ensure_built() {
  if [ -f "$BENCH_JAR" ] && [ -f "$OPTS_FILE" ] && [ -f "$SPARK_JAR" ] && [ -f "$SPARK_CP" ] && [ -f "$EXAMPLES_JAR" ] && \
     [ -f "$CLIENT_JAR" ] && [ -f "$CLIENT_CP" ] && [ -f "$SERVICE_CP" ] && \
     [ -f "$SERVICE_RUNTIME_CP" ] && \
     [ -z "$(find "$ROOT" -path "$ROOT/.git" -prune -o \( -name 'pom.xml' -o -path '*/src/main/*' \) -newer "$BENCH_JAR" -type f -print -quit)" ]; then
    return
  fi
  need_mvn
  echo "pir: building (mvn package -DskipTests) with $JAVA_HOME" >&2
  "$MVN" -f "$ROOT/pom.xml" -B -q -DskipTests package >&2 || die "build failed"
}

run_java() { # a main class from the benchmarks jar (kernels and logging), the examples or the client jar
  ensure_built
  exec "$JAVA" @"$OPTS_FILE" -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
    ${PIR_JAVA_OPTS:-} -cp "$BENCH_JAR:$EXAMPLES_JAR:$CLIENT_JAR" "$@"
}

run_client() { # the client's commands on pir-client's class path: no Spark, Scala or Hadoop
  ensure_built
  exec "$JAVA" @"$OPTS_FILE" -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
    ${PIR_JAVA_OPTS:-} -cp "$CLIENT_JAR:$(cat "$CLIENT_CP")" org.jpir.client.cli.ClientCli "$@"
}

run_examples() { # a main class of the examples jar (kernels, core, picocli) with log4j, no Spark
  ensure_built
  local cp="$EXAMPLES_JAR" j
  # the examples jar leaves log4j out (Spark provides it); take spark-jobs' log4j-api and -core
  while IFS= read -r j; do
    case "$j" in */log4j-api-*.jar|*/log4j-core-*.jar) cp="$cp:$j" ;; esac
  done < <(tr ':' '\n' < "$SPARK_CP")
  exec "$JAVA" @"$OPTS_FILE" -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
    ${PIR_JAVA_OPTS:-} -cp "$cp" "$@"
}

run_spark() { # main class + args, with Spark on the class path (local mode unless a master is given)
  ensure_built
  exec "$JAVA" @"$OPTS_FILE" -Xmx${PIR_DRIVER_MEMORY:-8g} \
    -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
    ${PIR_JAVA_OPTS:-} -cp "$SPARK_JAR:$EXAMPLES_JAR:$(cat "$SPARK_CP")" "$@"
}

run_service() { # main class + args of pir-service (the network service) with Spark and grpc
  ensure_built
  exec "$JAVA" @"$OPTS_FILE" -Xmx${PIR_DRIVER_MEMORY:-8g} \
    -Dlog4j2.configurationFile="$ROOT/deploy/conf/log4j2.properties" \
    ${PIR_JAVA_OPTS:-} -cp "$SERVICE_CLASSES:$(cat "$SERVICE_CP"):$(cat "$SERVICE_RUNTIME_CP")" \
    "$@"
}

has_port() { # whether the arguments hold --port (serve then runs the network service)
  local a
  for a in "$@"; do
    case "$a" in --port|--port=*) return 0 ;; esac
  done
  return 1
}

usage() {
  cat <<USAGE
jpir launcher (JDK: $( (find_jdk) 2>/dev/null || echo "none found: every command but help needs JDK 17+, 25 preferred"))
  ./pir demo [options]     the main job in Spark local mode on a generated database (see README)
  ./pir demo-compact       compact queries (~0.1 MiB) on Spark, expansion on driver vs executors
  ./pir answer ...         answer a directory of query files (Spark)
  ./pir serve ...          prepare once, answer query files as they arrive (stop: touch <out>/STOP)
  ./pir serve --port P --db [NAME=]SPEC ...  the network service (gRPC jpir.v1.PirService; docs/service.md)
  ./pir client ...         keygen | evk | query | decode | verify | lookup (random query ids, private --ids map; no Spark)
                           | fetch --server host:port (over the network, from ./pir serve --port)
  ./pir setup <source> ... import a source into a stored database (table, update, synthetic, lines, csv, tsv, binary, wordlist)
  ./pir data ...           manifest | verify | lookup (stored databases); data import <source> is an alias of setup
  ./pir local-demo         the same protocol in one JVM without Spark
  ./pir test               build and run every test (mvn verify)
  ./pir build              build the jars without tests (mvn package -DskipTests)
  ./pir bench [options]    run the JMH kernel benchmarks, write JSON and the table in docs/benchmarks.md
  ./pir bench-server [options] server time per query on one core against the measured ceilings
  ./pir bench-service [options] the gRPC service under load against the offline answer job (docs/service.md)
  ./pir info               print the JDK, the kernel choice and the JVM options
  ./pir java <class> ...   run a main class of benchmarks, examples or pir-client with the project's JVM options
  ./pir spark-java <class> ... the same with Spark on the class path
  ./pir cluster ...        a standalone Spark cluster on 127.0.0.1 (deploy/cluster.sh)
  ./pir java-home          print the JDK the launcher uses
  ./pir help               this text (needs no JDK); each Java command takes --help or says its options
Environment: JAVA_HOME (JDK to use), PIR_JAVA_OPTS (extra JVM options), PIR_DRIVER_MEMORY
(default 8g), MVN (maven binary)
USAGE
}

cmd="${1:-help}"; shift || true
case "$cmd" in
  test)  need_mvn; exec "$MVN" -f "$ROOT/pom.xml" -B verify "$@" ;;
  build) need_mvn; exec "$MVN" -f "$ROOT/pom.xml" -B -DskipTests package "$@" ;;
  serve) if has_port "$@"; then run_service org.jpir.service.ServeMain "$@"; else run_spark org.jpir.spark.PirJob serve "$@"; fi ;;
  demo|demo-compact|answer|setup) run_spark org.jpir.spark.PirJob "$cmd" "$@" ;;
  client) run_client "$@" ;;
  data) run_spark org.jpir.datasets.cli.DatasetsCli "$@" ;;
  spark-java) [ $# -ge 1 ] || die "usage: ./pir spark-java <main class> [args]"; run_spark "$@" ;;
  local-demo) run_examples org.jpir.core.demo.LocalDemo "$@" ;;
  bench) run_java org.jpir.bench.BenchRunner "$@" ;;
  bench-server) run_java org.jpir.bench.ServerBench "$@" ;;
  bench-service) run_service org.jpir.service.load.LoadHarness "$@" ;;
  info)  run_examples org.jpir.core.demo.Info "$@" ;;
  java)  [ $# -ge 1 ] || die "usage: ./pir java <main class> [args]"; run_java "$@" ;;
  java-home) echo "$JAVA_HOME" ;;
  cluster) exec "$ROOT/deploy/cluster.sh" "$@" ;;
  help|-h|--help) usage ;;
  *) usage >&2; die "unknown command '$cmd'" ;;
esac
