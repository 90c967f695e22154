#!/usr/bin/env bash
# The documentation's commands, as written: every fenced block of README.md and docs/*.md that is
# marked <!-- ci: run [NAME=value ...] --> on the line before it runs in a scratch directory of
# its own under bash -euo pipefail, with ./pir this repository's launcher and the marker's
# variables set (DB=... for a block that names $DB); a block that fails fails this script.
# Blocks marked <!-- ci: .ci/run --> are steps of .ci/run themselves, and <!-- ci: by hand ... -->
# blocks need a cluster, a large machine or files of the user's (DocumentationTest checks that
# every command block carries one of the three markers).
#   deploy/docs-test.sh            every marked block
#   deploy/docs-test.sh protocol   only the pages whose path contains "protocol"
set -euo pipefail
shopt -s nullglob
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-$ROOT/deploy/target/docs-test}"
rm -rf "$WORK"; mkdir -p "$WORK"
python3 - "$ROOT" "$WORK" "${1:-}" <<'PY'
import os, re, sys
root, work, only = sys.argv[1], sys.argv[2], sys.argv[3]
pages = [os.path.join(root, "README.md")] + sorted(
    os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
n = 0
for page in pages:
    if only and only not in page:
        continue
    lines = open(page, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"<!-- ci: run((?: [A-Z_]+=\S+)*) -->$", lines[i].strip())
        if m and i + 1 < len(lines) and lines[i + 1].startswith("```"):
            end = next(j for j in range(i + 2, len(lines)) if lines[j].startswith("```"))
            n += 1
            d = os.path.join(work, "block%02d" % n)
            os.makedirs(d)
            with open(os.path.join(d, "pir"), "w") as f:
                f.write('#!/usr/bin/env bash\nexec "%s/pir" "$@"\n' % root)
            os.chmod(os.path.join(d, "pir"), 0o755)
            with open(os.path.join(d, "block.sh"), "w") as f:
                f.write("# %s, line %d\n" % (os.path.relpath(page, root), i + 3))
                for kv in m.group(1).split():
                    k, v = kv.split("=", 1)
                    f.write("%s='%s'\n" % (k, v))
                f.write("\n".join(lines[i + 2:end]) + "\n")
            i = end
        i += 1
print(n)
PY
fail=0
for b in "$WORK"/block*/; do
  where=$(head -1 "$b/block.sh" | cut -c3-)
  echo "docs-test: $where"
  if (cd "$b" && bash -euo pipefail block.sh > run.log 2>&1); then
    echo "docs-test: ok ($where)"
  else
    tail -30 "$b/run.log"
    echo "docs-test: FAILED: the block at $where (log: $b/run.log)" >&2
    fail=1
  fi
done
[ "$fail" = 0 ] || exit 1
echo "docs-test: OK"
