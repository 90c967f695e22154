#!/bin/bash
export PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /tmp/s
for fb in 1 16 4; do
taskset -c 1 java @/work/main/vmp-kernels/target/classes/jpir-jvm.options -Xmx8g -cp /work/main/benchmarks/target/benchmarks.jar org.jpir.bench.ForkRotation --workload multi:4096:548:12:128 --forks 4 --turns 4 --slot-ms 2000 --fork-jvm-arg -Djpir.vmp.finishBlocks=$fb --out /tmp/s/ab-fb$fb.md > /tmp/s/ab-fb$fb.log 2>&1
done
