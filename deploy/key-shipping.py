#!/usr/bin/env python3
"""Bytes of broadcast pieces per Spark batch, from a Spark event log written with
spark.eventLog.logBlockUpdates.enabled=true (deploy/key-shipping.sh).

Every broadcast piece the driver writes before a job is counted for the next job; a job tagged
with the local property jpir.batch is one Spark batch of the answer path, an untagged job (the
prepare pass) is left out, together with the broadcasts written before it. A piece stored by an
executor (executor id other than "driver") is a fetch, counted for the batch whose job is running.
Prints one line per batch and a summary; --json prints the summary as one JSON object.

Usage: key-shipping.py EVENT_LOG_FILE... [--json]   (a rolled log's files in order)
"""
import json
import sys


def events(paths):
    for path in paths:
        with open(path) as f:
            for line in f:
                yield json.loads(line)


def main(paths, as_json):
    batches = []          # [tag, written, fetched]
    pending = 0           # driver-written piece bytes not yet given to a job
    current = None        # the batch whose job runs now
    for e in events(paths):
        kind = e.get("Event")
        if kind == "SparkListenerJobStart":
            tag = (e.get("Properties") or {}).get("jpir.batch")
            if tag is None:
                pending = 0
                current = None
            elif current is not None and current[0] == tag:
                current[1] += pending          # a second job of the same batch
                pending = 0
            else:
                current = [tag, pending, 0]
                batches.append(current)
                pending = 0
        elif kind == "SparkListenerBlockUpdated":
            info = e["Block Updated Info"]
            block = info["Block ID"]
            if not (block.startswith("broadcast_") and "_piece" in block):
                continue
            level = info["Storage Level"]
            if not ((level.get("Use Memory") or level.get("Use Disk"))
                    and level.get("Replication", 0) > 0):
                continue                       # a removal (Spark's StorageLevel.isValid)
            size = info.get("Memory Size", 0) + info.get("Disk Size", 0)
            if info["Block Manager ID"]["Executor ID"] == "driver":
                pending += size
            elif current is not None:
                current[2] += size
    n = len(batches)
    written = sum(b[1] for b in batches)
    fetched = sum(b[2] for b in batches)
    summary = {"batches": n, "written_bytes": written, "fetched_bytes": fetched,
               "written_per_batch": written / n if n else 0,
               "fetched_per_batch": fetched / n if n else 0,
               "first_batch_written": batches[0][1] if n else 0,
               "later_batches_written_per_batch":
                   sum(b[1] for b in batches[1:]) / (n - 1) if n > 1 else 0}
    if as_json:
        print(json.dumps(summary))
        return
    for tag, w, fe in batches:
        print(f"{tag}: broadcast written {w / 1024:.1f} KiB, fetched by executors {fe / 1024:.1f} KiB")
    print(f"{n} batches: written {written / 1048576:.2f} MiB ({summary['written_per_batch'] / 1024:.1f} KiB"
          f" per batch), fetched {fetched / 1048576:.2f} MiB ({summary['fetched_per_batch'] / 1024:.1f} KiB"
          f" per batch)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main([a for a in sys.argv[1:] if a != "--json"], "--json" in sys.argv[1:])
