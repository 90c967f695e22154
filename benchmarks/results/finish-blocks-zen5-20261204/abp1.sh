#!/bin/bash
export PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
cd /tmp/s
taskset -c 1 java @/work/main/vmp-kernels/target/classes/jpir-jvm.options -Xmx8g -cp /work/main/benchmarks/target/benchmarks.jar org.jpir.bench.ForkRotation --workload phase1:1024 --forks 4 --turns 4 --slot-ms 2500 --fork-jvm-arg -Djpir.vmp.finishBlocks=1 --out /tmp/s/ab-p1-fb1.md > /tmp/s/ab-p1-fb1.log 2>&1
