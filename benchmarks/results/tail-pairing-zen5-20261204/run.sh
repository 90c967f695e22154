#!/bin/bash
cd /work/wt-tail
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
export PIR_JAVA_OPTS="-Xms15g -Xmx15g"
for cfg in "onionpir-2048-compact-128 --pair-tails" "onionpir-4096-compact-128" "onionpir-2048-compact-128" "onionpir-2048-compact-128 --pair-tails"; do
  set -- $cfg
  i=$((i+1)); tag=$i-$(echo "$cfg" | tr ' ' '_')
  echo "=== $cfg $(date -u +%FT%TZ) rev $(git rev-parse --short HEAD)+wip"
  taskset -c 1 ./pir java org.jpir.core.demo.CompactDemo --preset $1 $2 --mib 1024 --record-size 3072 --queries 4 > /tmp/m16/$tag.log 2>&1
  grep -E "database 1024|record 0|per query|1024 MiB geometry, CPU" /tmp/m16/$tag.log
done
echo done
