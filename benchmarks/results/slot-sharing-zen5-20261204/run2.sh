#!/bin/bash
cd /work/main
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
export PIR_JAVA_OPTS="-Xms15g -Xmx15g"
for i in 2 3; do for cfg in "onionpir-4096-compact-128" "onionpir-2048-compact-128"; do
  set -- $cfg
  tag=$(echo "$cfg" | tr ' ' '_')-$i
  echo "=== $cfg $(date -u +%FT%TZ) rev $(git rev-parse --short HEAD)"
  taskset -c 1 ./pir java org.jpir.core.demo.CompactDemo --preset $1 $2 --mib 1024 --record-size 3072 --queries 4 > /tmp/m15/$tag.log 2>&1
  grep -E "per query|1024 MiB geometry, CPU" /tmp/m15/$tag.log
done; done
echo done
