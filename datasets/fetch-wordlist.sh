#!/usr/bin/env bash
# Obtains Debian's American English word list (package wamerican, public domain-ish, see its
# copyright file) into the folder given as $1, as $1/words, without installing anything:
#   datasets/fetch-wordlist.sh /tmp/wordlist   ->  /tmp/wordlist/words (~100k words)
# Uses /usr/share/dict/american-english when the package is already installed.
set -euo pipefail
dest="${1:?usage: fetch-wordlist.sh DEST_DIR}"
mkdir -p "$dest"
if [[ -s /usr/share/dict/american-english ]]; then
  cp /usr/share/dict/american-english "$dest/words"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get download wamerican >/dev/null)
  deb="$(ls "$work"/wamerican_*.deb)"
  dpkg-deb -x "$deb" "$work/root"
  cp "$work/root/usr/share/dict/american-english" "$dest/words"
  if [[ -f "$work/root/usr/share/doc/wamerican/copyright" ]]; then
    cp "$work/root/usr/share/doc/wamerican/copyright" "$dest/words.copyright"
  fi
  basename "$deb" > "$dest/words.source"
fi
echo "$(wc -l < "$dest/words") words in $dest/words"
