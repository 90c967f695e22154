#!/bin/bash
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
export PIR_JAVA_OPTS="-Xms15g -Xmx15g"
for cfg in "onionpir-4096-compact-128" "onionpir-2048-compact-128" "onionpir-2048-compact-128 --share-slots"; do
  set -- $cfg
  tag=$(echo "$cfg" | tr ' ' '_')
  echo "=== $cfg $(date -u +%FT%TZ) rev $(git rev-parse --short HEAD)"
  /usr/bin/time -v taskset -c 1 ./pir java org.jpir.core.demo.CompactDemo --preset $1 $2 --mib 1024 --record-size 3072 --queries 3 > /tmp/m15/$tag.log 2>&1
  grep -E "preset|per query|1024 MiB|record 0|Maximum resident|Elapsed" /tmp/m15/$tag.log
done
echo done
