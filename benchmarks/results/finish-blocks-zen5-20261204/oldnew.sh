#!/bin/bash
export PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /tmp/s
for i in 1 2 3; do
for v in old new; do
if [ $v = old ]; then J=/tmp/old/benchmarks/target/benchmarks.jar; O=/tmp/old/vmp-kernels/target/classes/jpir-jvm.options; else J=/work/main/benchmarks/target/benchmarks.jar; O=/work/main/vmp-kernels/target/classes/jpir-jvm.options; fi
echo "== $v $i $(date +%T)"
taskset -c 1 java @$O -Xmx8g -cp $J org.jpir.bench.KernelAb multi:4096:548:12:128 panama 12 1000 2>&1 | grep -v "^\s*$" | tail -4
done; done
