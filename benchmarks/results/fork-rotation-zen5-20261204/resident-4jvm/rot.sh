#!/bin/bash
# 4 JVMs on core 1, one running at a time, rotated every 4 s for ROUNDS rotations.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; CP=/work/main/benchmarks/target/benchmarks.jar:/tmp/slow/cls
O="$(cat /work/main/vmp-kernels/target/classes/jpir-jvm.options)"
K=${K:-4}; ROUNDS=${ROUNDS:-12}; EXTRA="${EXTRA:-}"
pids=()
for i in $(seq 1 $K); do
  taskset -c 1 $J $O -Xms3500m -Xmx3500m $EXTRA -cp $CP org.jpir.vmp.Loop 100000 > /tmp/slow/j$i.out 2>/dev/null &
  pids+=($!)
  # wait for READY then stop it
  until grep -q READY /tmp/slow/j$i.out 2>/dev/null; do sleep 1; done
  kill -STOP ${pids[-1]}
done
for r in $(seq 1 $ROUNDS); do
  for i in $(seq 0 $((K-1))); do
    kill -CONT ${pids[$i]}; sleep 4; kill -STOP ${pids[$i]}
  done
done
for p in ${pids[@]}; do kill -9 $p; done
