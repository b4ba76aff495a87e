#!/usr/bin/env python3
"""Turn fibercl_bench JSON output (--benchmark_out=... --benchmark_out_format=json,
run with --benchmark_repetitions=N --benchmark_report_aggregates_only=true) into a
markdown table of medians per platform and FiberCL/PoCL ratios.

Usage: bench_to_markdown.py bench.json > table.md
Ratios: time ratio FiberCL/PoCL (< 1 means FiberCL is faster); for the counters the
ratio is of the counter values as reported (for throughputs > 1 means FiberCL is faster;
for ns/item/barrier < 1 means FiberCL is faster).
"""
import json
import sys

PLATFORMS = ["FiberCL", "PoCL"]
COUNTERS = [("items_per_second", "items/s"), ("bytes_per_second", "bytes/s"),
            ("GFLOP/s", "GFLOP/s"), ("ns/item/barrier", "ns/item/barrier")]


def human(v):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(v) >= scale:
            return "%.3g%s" % (v / scale, unit)
    return "%.3g" % v


def main():
    data = json.load(open(sys.argv[1]))
    rows = {}  # bench -> platform -> record
    order = []
    for b in data.get("benchmarks", []):
        if b.get("aggregate_name", "median") != "median":
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        parts = b.get("run_name", b["name"]).split("/")
        parts = [p for p in parts if p != "real_time" and not p.startswith("iterations:")]
        if len(parts) < 2:
            continue
        bench, plat = parts[0], parts[1]
        if bench not in rows:
            rows[bench] = {}
            order.append(bench)
        rows[bench][plat] = b

    print("| benchmark | FiberCL time | PoCL time | time FiberCL/PoCL | metric | FiberCL | PoCL | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for bench in order:
        r = rows[bench]
        cells = []
        times = {}
        for p in PLATFORMS:
            if p in r:
                times[p] = r[p]["real_time"]
                cells.append("%.4g %s" % (r[p]["real_time"], r[p].get("time_unit", "ns")))
            else:
                cells.append("—")
        ratio = "%.2f" % (times["FiberCL"] / times["PoCL"]) if len(times) == 2 and times["PoCL"] else "—"
        metric, mv = "", ["—", "—"]
        mratio = "—"
        for key, label in COUNTERS:
            if any(key in r.get(p, {}) for p in PLATFORMS):
                metric = label
                vals = [r[p][key] if p in r and key in r[p] else None for p in PLATFORMS]
                mv = [human(v) if v is not None else "—" for v in vals]
                if None not in vals and vals[1]:
                    mratio = "%.2f" % (vals[0] / vals[1])
                if key == "ns/item/barrier":
                    break
        print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (bench, cells[0], cells[1], ratio,
                                                               metric, mv[0], mv[1], mratio))


if __name__ == "__main__":
    main()
