#!/usr/bin/env bash
# The Debian package index as a keyword table's source: one line per package,
# "<package>\t<version> <one-line summary>", from the Packages lists apt keeps after
# `apt-get update` (plain, .gz, .xz or .lz4), first occurrence of each package name kept.
#   datasets/debian-packages.sh OUT.tsv [PACKAGES_FILE ...]
# Default input: every /var/lib/apt/lists/*_Packages* on this machine. Then:
#   ./pir setup tsv --in OUT.tsv --keyword --out db/debian
set -euo pipefail
[ $# -ge 1 ] || { sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
out="$1"; shift
if [ $# -eq 0 ]; then
  set -- /var/lib/apt/lists/*_Packages*
  [ -e "$1" ] || { echo "debian-packages: no /var/lib/apt/lists/*_Packages* (run apt-get update, or name a Packages file)" >&2; exit 1; }
fi
for f in "$@"; do
  case "$f" in
    *.lz4) lz4cat "$f" ;;
    *.gz) gzip -dc "$f" ;;
    *.xz) xz -dc "$f" ;;
    *) cat "$f" ;;
  esac
  echo
done | awk '
  function flush() { if (p != "" && !(p in seen)) { seen[p] = 1; print p "\t" v " " d; n++ } p = v = d = "" }
  /^Package: / { p = substr($0, 10) }
  /^Version: / { v = substr($0, 10) }
  /^Description: / { d = substr($0, 14); gsub(/\t/, " ", d) }
  /^$/ { flush() }
  END { flush(); printf "debian-packages: %d packages\n", n > "/dev/stderr" }
' > "$out"
