#!/usr/bin/env bash
# The network service through the launcher: two stored databases (lines by index, a keyword table)
# served by `./pir serve --port` on 127.0.0.1, records fetched by `./pir client fetch --server`
# and compared with the plaintext they were imported from, an absent key, an unknown database,
# then a stop by SIGTERM (the accepted calls answered first).
# Environment: PORT (default: a free port on 127.0.0.1), WORK (deploy/target/service-test).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PORT="${PORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}"
WORK="${WORK:-$ROOT/deploy/target/service-test}"
fail() { echo "service-test: FAILED: $*" >&2; [ -f "$WORK/serve.log" ] && tail -30 "$WORK/serve.log" >&2; exit 1; }
rm -rf "$WORK"; mkdir -p "$WORK"
for i in $(seq 0 299); do echo "line $i of the service test $((i * 7919 % 1000))"; done > "$WORK/lines.txt"
for i in $(seq 0 199); do printf 'key%d\tvalue of key %d\n' "$i" "$i"; done > "$WORK/kv.tsv"
./pir setup lines --in "$WORK/lines.txt" --out "$WORK/lines" --record-size 64 --progress quiet >/dev/null
./pir setup tsv --in "$WORK/kv.tsv" --out "$WORK/kw" --keyword --progress quiet >/dev/null
PIR_DRIVER_MEMORY="${PIR_DRIVER_MEMORY:-2g}" ./pir serve --port "$PORT" --db "lines=$WORK/lines" \
  --db "kw=$WORK/kw" --micro-batch 8 > "$WORK/serve.log" 2>&1 &
spid=$!
trap 'kill -TERM $spid 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
  grep -q "serve: listening on" "$WORK/serve.log" && break
  kill -0 "$spid" 2>/dev/null || fail "the service exited before listening"
  sleep 1
done
grep -q "serve: listening on" "$WORK/serve.log" || fail "the service did not listen within 300 s"
S="127.0.0.1:$PORT"
# by index: each record is the line, length-prefixed (1 byte) and zero-padded to 64 bytes
./pir client fetch --server "$S" --database lines --index 0,150,299 > "$WORK/fetch.out" \
  || fail "client fetch by index"
while read -r idx hex; do
  got=$(python3 -c 'import sys; b=bytes.fromhex(sys.argv[1]); print(b[1:1+b[0]].decode())' "$hex")
  want=$(sed -n "$((idx + 1))p" "$WORK/lines.txt")
  [ "$got" = "$want" ] || fail "record $idx: '$got', not '$want'"
done < "$WORK/fetch.out"
[ "$(wc -l < "$WORK/fetch.out")" -eq 3 ] || fail "3 records expected: $(cat "$WORK/fetch.out")"
# by keyword (a compact preset: the client uploads its evaluation keys first)
v=$(./pir client fetch --server "$S" --database kw --keyword key17) || fail "client fetch --keyword"
[ "$v" = "value of key 17" ] || fail "key17: '$v'"
set +e
a=$(./pir client fetch --server "$S" --database kw --keyword no-such-key); rc=$?
./pir client fetch --server "$S" --database nope --index 1 > /dev/null 2> "$WORK/nope.err"; rc2=$?
set -e
[ "$rc" -eq 3 ] && [ "$a" = "absent" ] || fail "an absent key: exit $rc, '$a'"
[ "$rc2" -eq 2 ] && grep -q "serves no database 'nope'" "$WORK/nope.err" || fail "unknown database: exit $rc2"
kill -TERM "$spid"
wait "$spid" || true
trap - EXIT
grep -q "serve: stopping" "$WORK/serve.log" || fail "no graceful stop"
grep -q "micro-batch" "$WORK/serve.log" || fail "no micro-batch logged"
echo "service-test: $(grep -c 'micro-batch [0-9]*:' "$WORK/serve.log") micro-batches; OK"
