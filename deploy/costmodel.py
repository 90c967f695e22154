#!/usr/bin/env python3
"""Cost model of the jpir answer job (see deploy/COST_MODEL.md for the formulas).

Usage: deploy/costmodel.py constants.json [scaling.csv]
Prints (markdown) the model's check against every measured scaling point, then predictions
for clusters of 10..1000 executors and databases of 10 GiB..10 TiB. Only the Python standard
library is used.
"""
import csv
import json
import math
import sys

N = 4096
POLY_BYTES = N * 7            # production preset: 7 bytes per coefficient
LIMBS, COLS12 = 4, 12


def geometry(raw_bytes, max_rows=1024):
    polys = math.ceil(raw_bytes / POLY_BYTES)
    rows = max(1, min(max_rows, round(math.sqrt(polys / 2))))
    return rows, math.ceil(polys / rows)


def batch_time(c, raw_bytes, executors, cores, batch, rows=None, cols=None, local=False,
               compact=False):
    """Seconds for one batch of `batch` queries; returns (total, parts)."""
    if rows is None:
        rows, cols = geometry(raw_bytes)
    if compact:
        # compact queries expanded on every executor (once per executor, cached): the broadcast
        # is ~0.1 MiB per query plus the client's keys; the expansion sits on the critical path
        slots = executors * cores
        parts = dict(expand=batch * rows * c["compact_expand_s_per_row"],
                     broadcast=batch * c["compact_query_bytes"] / c["net_bytes_per_s"],
                     phase1=batch * raw_bytes / (slots * c["phase1_bytes_per_s_per_core"]),
                     phase2=batch * cols / slots * c["cmux_s"],
                     fold=batch * 2 * slots * c["cmux_s"], overhead=c["job_overhead_s"])
        return sum(parts.values()), parts
    slots = executors * cores
    pmat = 8 * N * rows * LIMBS * COLS12                     # prepared matrix bytes per query
    t_expand = batch * rows * c["expand_s_per_row"]           # driver, serial
    if local:
        t_bcast = batch * pmat / c["local_bcast_bytes_per_s"]
    else:
        # torrent broadcast: every executor reads the matrix once, peers share pieces, so the
        # time grows slowly with the executor count (the log factor is assumed, not measured)
        t_bcast = batch * pmat / c["net_bytes_per_s"] * (1 + math.log2(executors) * c["bcast_log_factor"])
    t_phase1 = batch * raw_bytes / (slots * c["phase1_bytes_per_s_per_core"])
    t_phase2 = batch * cols / slots * c["cmux_s"]
    partitions = 2 * slots
    t_fold = batch * partitions * c["cmux_s"]
    t_tasks = c["job_overhead_s"]
    parts = dict(expand=t_expand, broadcast=t_bcast, phase1=t_phase1, phase2=t_phase2,
                 fold=t_fold, overhead=t_tasks)
    return sum(parts.values()), parts


def main():
    c = json.load(open(sys.argv[1]))
    if len(sys.argv) > 2:
        print("| DB MiB | executors | batch | measured GB/s (after 1st batch) | predicted GB/s | error |")
        print("|---:|---:|---:|---:|---:|---:|")
        for row in csv.DictReader(open(sys.argv[2])):
            raw = int(row["raw_bytes"])
            ex, b = int(row["executors"]), int(row["batch"])
            answered = int(row["answered"])
            t, _ = batch_time(c, raw, ex, 1, b, int(row["rows"]), int(row["cols"]))
            pred = raw * b / t / 1e9
            meas = float(row.get("steady_gbps") or row["gbps"])
            print(f"| {row['db_mib']} | {ex} | {b} | {meas:.3f} | {pred:.3f} | {100*(pred/meas-1):+.0f}% |")
        print()
    print("| DB | executors (x%d cores) | batch | rows x cols | classic: GB/s | queries/s | largest share | compact (executor expansion): GB/s | queries/s | largest share |" % c["cores_per_executor"])
    print("|---:|---:|---:|---:|---:|---:|---|---:|---:|---|")
    for db_gib in (10, 100, 1024, 10240):
        raw = db_gib * 2**30
        rows, cols = geometry(raw)
        for ex in (10, 100, 1000):
            for b in (1, 16):
                t, parts = batch_time(c, raw, ex, c["cores_per_executor"], b)
                big = max(parts, key=parts.get)
                tc, pc = batch_time(c, raw, ex, c["cores_per_executor"], b, compact=True)
                bigc = max(pc, key=pc.get)
                label = f"{db_gib} GiB" if db_gib < 1024 else f"{db_gib // 1024} TiB"
                print(f"| {label} | {ex} | {b} | {rows} x {cols} | {raw * b / t / 1e9:.1f} | {b / t:.3f} | {big} {100 * parts[big] / t:.0f}% "
                      f"| {raw * b / tc / 1e9:.1f} | {b / tc:.3f} | {bigc} {100 * pc[bigc] / tc:.0f}% |")


if __name__ == "__main__":
    main()
