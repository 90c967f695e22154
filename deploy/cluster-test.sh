#!/usr/bin/env bash
# The cluster test (run by .ci/run): a standalone Master and two Workers on 127.0.0.1 built from
# this build's own jars, the `answer` job submitted with spark-submit, queries named by random ids
# (the id -> index map stays in the client's directory, which the server never reads).
#   run 1: every answer decoded and checked against the database;
#   run 2: six good queries and three bad files (a 74-byte query declaring ~2^30 elements, a
#          truncated query, a query for another preset) in two batches of 5 (so every batch holds
#          good queries), one executor killed while the first batch runs: the job exits 0, each bad file has an error file and no answer, every
#          good query is answered exactly;
#   run 3: the same job restarted on run 2's output directory after one answer was removed:
#          it skips the answered queries, says how many, and answers the missing one;
#   run 4: the database's default preset (its record size's: compact queries), the key made
#          with keygen --db, the client's evaluation keys in --keys, every answer checked;
#   run 5: the service mode (serve): queries arriving while it runs, one executor killed after
#          the first answer, every answer checked after a clean stop; prints the time from the
#          kill to the running micro-batch answered and to the next query's micro-batch answered
#          (lost partitions prepared again first);
#   run 6: the network service (serve --port) under load from 3 concurrent clients, each with its
#          own keys, for 30 s, one executor killed after the third micro-batch, key broadcasts
#          bounded below the clients' keys (evicted and broadcast again under load): every query
#          sent is answered once (the service's counts) and decodes exactly
#          (deploy/service-kill-test.sh, about a minute).
# Runs 1-3 use the classic preset (PRESET), whose hostile files and restart lines they check.
# Stops the cluster on exit.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export JPIR_CLUSTER_DIR="${JPIR_CLUSTER_DIR:-$ROOT/deploy/target/cluster-test}"
export JPIR_MASTER_PORT="${JPIR_MASTER_PORT:-7177}" JPIR_MASTER_UI_PORT="${JPIR_MASTER_UI_PORT:-8180}"
export JPIR_WORKER_UI_PORT="${JPIR_WORKER_UI_PORT:-8181}"
PRESET="${PRESET:-onionpir-4096-128}"
DB="${DB:-synthetic:16384x1024:7}"          # 16 MiB
WORK="$JPIR_CLUSTER_DIR/data"
CLIENT="$WORK/client"                      # the client's private side: key and id maps
trap 'deploy/cluster.sh stop >/dev/null 2>&1 || true' EXIT
fail() { echo "cluster-test: FAILED: $*" >&2; exit 1; }

deploy/cluster.sh home
deploy/cluster.sh start 2 1 2g
rm -rf "$WORK"; mkdir -p "$WORK/q1" "$WORK/q2" "$CLIENT"
./pir client keygen --preset "$PRESET" --out "$CLIENT/key.bin"
count="${DB#synthetic:}"; count="${count%%x*}"
./pir client query --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --index "0,1,777,$((count - 1))" \
  --ids "$CLIENT/ids1.map" --out "$WORK/q1"
./pir client query --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --index "3,5000,9000,12000,15000,$((count - 2))" \
  --ids "$CLIENT/ids2.map" --out "$WORK/q2"
./pir java org.jpir.client.tools.HostileQueries --preset "$PRESET" --db "$DB" --out "$WORK/q2" > "$WORK/bad.txt"
cat "$WORK/bad.txt"

echo "cluster-test: run 1: answer job on the cluster"
deploy/cluster.sh submit answer --preset "$PRESET" --db "$DB" --queries "$WORK/q1" --out "$WORK/a1" --batch 2 --partitions 4
./pir client verify --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --ids "$CLIENT/ids1.map" --answers "$WORK/a1"

echo "cluster-test: run 2: three bad files among good queries in batches of 5, one executor killed mid-batch"
deploy/cluster.sh submit answer --preset "$PRESET" --db "$DB" --queries "$WORK/q2" --out "$WORK/a2" --batch 5 --partitions 4 \
  > "$WORK/run2.log" 2>&1 &
submit=$!
killed=""
for _ in $(seq 1 1500); do
  # the partitions are prepared and cached: batch 1 starts now; kill while its tasks run
  if grep -q "prepared .* columns in" "$WORK/run2.log" 2>/dev/null; then
    sleep 2
    victim=$(deploy/cluster.sh executors | head -n1)
    if [ -n "$victim" ]; then kill -9 "$victim"; killed=$victim; fi
    break
  fi
  kill -0 $submit 2>/dev/null || break
  sleep 0.2
done
wait $submit || { cat "$WORK/run2.log"; fail "run 2 exited non-zero"; }
grep -E "batch|answer:|rejected|memory plan|Lost executor" "$WORK/run2.log" || true
[ -n "$killed" ] || fail "no executor was killed (job ended too early?)"
grep -q "batch 1/2" "$WORK/run2.log" || fail "batch 1 of 2 did not finish"
echo "cluster-test: killed executor pid $killed during run 2"
while read -r name what; do
  stem="${name%.*}"
  [ -f "$WORK/a2/$stem.error" ] || fail "bad file $name ($what) has no error file"
  [ ! -e "$WORK/a2/$stem.answer" ] || fail "bad file $name ($what) got an answer"
  echo "cluster-test: $what -> $(cat "$WORK/a2/$stem.error")"
done < "$WORK/bad.txt"
./pir client verify --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --ids "$CLIENT/ids2.map" --answers "$WORK/a2"

echo "cluster-test: run 3: restart on run 2's output with one answer removed"
first=$(grep -v '^#' "$CLIENT/ids2.map" | head -n1 | cut -d' ' -f1)
rm "$WORK/a2/$first.answer"
deploy/cluster.sh submit answer --preset "$PRESET" --db "$DB" --queries "$WORK/q2" --out "$WORK/a2" --batch 5 --partitions 4 \
  > "$WORK/run3.log" 2>&1 || { cat "$WORK/run3.log"; fail "run 3 exited non-zero"; }
grep -E "skipping|answer:" "$WORK/run3.log" || true
grep -q "skipping 5 of 9 queries already answered" "$WORK/run3.log" || fail "run 3 did not skip the 5 answered queries"
grep -q "answer: 1 answered, 3 with an error file, 5 skipped" "$WORK/run3.log" || fail "run 3 did not answer exactly the missing query"
./pir client verify --preset "$PRESET" --db "$DB" --key "$CLIENT/key.bin" --ids "$CLIENT/ids2.map" --answers "$WORK/a2"
echo "cluster-test: run 4: the default preset (compact queries, the client's evaluation keys uploaded once)"
mkdir -p "$WORK/q4" "$WORK/keys"
./pir client keygen --db "$DB" --out "$CLIENT/ckey.bin"
./pir client evk --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --out "$WORK/keys/c1.evk"
./pir client query --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --evk "$WORK/keys/c1.evk" \
  --index "0,4242,$((count - 1))" --ids "$CLIENT/ids4.map" --out "$WORK/q4"
deploy/cluster.sh submit answer --db "$DB" --queries "$WORK/q4" --out "$WORK/a4" --keys "$WORK/keys" --batch 3 --partitions 4
./pir client verify --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --ids "$CLIENT/ids4.map" --answers "$WORK/a4"
echo "cluster-test: run 5: the service mode, queries arriving while it runs, an executor killed mid-batch"
mkdir -p "$WORK/q5"
deploy/cluster.sh submit serve --db "$DB" --queries "$WORK/q5" --out "$WORK/a5" --keys "$WORK/keys" \
  --batch 2 --partitions 4 --poll-ms 200 > "$WORK/run5.log" 2>&1 &
serve=$!
waitfor() { # $1 = what, $2.. = test command; polls up to 300 s while the service runs
  local what="$1"; shift
  for _ in $(seq 1 1500); do
    if "$@"; then return 0; fi
    kill -0 $serve 2>/dev/null || { cat "$WORK/run5.log"; fail "serve exited while waiting for $what"; }
    sleep 0.2
  done
  cat "$WORK/run5.log"; fail "timed out waiting for $what"
}
answers5() { [ "$(ls "$WORK/a5" 2>/dev/null | grep -c '\.answer$')" -ge "$1" ]; }
waitfor "the service to start" grep -q "serve: watching" "$WORK/run5.log"
./pir client query --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --evk "$WORK/keys/c1.evk" \
  --index "5,6000,$((count - 3))" --ids "$CLIENT/ids5.map" --out "$WORK/q5"
waitfor "the first answer" answers5 1
./pir client query --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --evk "$WORK/keys/c1.evk" \
  --index "11,12000" --ids "$CLIENT/ids5.map" --out "$WORK/q5"
sleep 1 # the second wave's micro-batch is starting: kill while its tasks run
victim=$(deploy/cluster.sh executors | head -n1)
[ -n "$victim" ] || fail "run 5: no executor to kill"
t_kill=$(date +%s%N)
kill -9 "$victim"
echo "cluster-test: killed executor pid $victim while the service ran"
waitfor "5 answers" answers5 5
t_back=$(date +%s%N)
echo "cluster-test: recovery: kill -> the running micro-batch answered in $(( (t_back - t_kill) / 1000000 )) ms"
# a later micro-batch: its lost partitions are prepared again first (on the executors holding
# fewest, a replacement among them once it has registered; the job logs "placement: ...")
./pir client query --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --evk "$WORK/keys/c1.evk" \
  --index "13" --ids "$CLIENT/ids5.map" --out "$WORK/q5"
waitfor "6 answers" answers5 6
t_spread=$(date +%s%N)
echo "cluster-test: recovery: kill -> the next query's micro-batch answered in $(( (t_spread - t_kill) / 1000000 )) ms (its query written after the 5th answer)"
touch "$WORK/a5/STOP"
wait $serve || { cat "$WORK/run5.log"; fail "run 5: serve exited non-zero"; }
grep -E "serve:|Lost executor|placement:|partitions per executor" "$WORK/run5.log" || true
./pir client verify --db "$DB" --key "$CLIENT/ckey.bin" --client-id c1 --ids "$CLIENT/ids5.map" --answers "$WORK/a5"
echo "cluster-test: run 6: the network service under load from concurrent clients, an executor killed"
MASTER="spark://127.0.0.1:$JPIR_MASTER_PORT" WORK="$WORK/service" deploy/service-kill-test.sh 2>&1 \
  | grep -E "^service-kill-test:|^fetch-check:|Lost executor|FAILED" \
  || { tail -40 "$WORK/service/serve.log" 2>/dev/null; fail "run 6"; }
# the server's side holds no index: file names are ids, the map never left the client's directory
if ls "$WORK/q1" "$WORK/q2" "$WORK/a1" "$WORK/a2" "$WORK/q4" "$WORK/a4" "$WORK/q5" "$WORK/a5" | grep -vE '^$|:$|^[0-9a-f]{32}\.(query|cquery|answer|error)$|^STOP$'; then
  fail "a server-side file is not named by a random id"
fi
echo "cluster-test: OK"
