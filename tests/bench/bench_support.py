"""Timing helpers shared by the comparison scripts (Debian's /usr/bin/python3)."""
import argparse
import json
import statistics
import subprocess
import time


def median_seconds(fn, repetitions):
    """Median wall time of fn() over `repetitions` runs, after one warm-up run."""
    fn()
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def gyre_medians(binary, repetitions, benchmark_filter=None):
    """Median real time in seconds of each Google Benchmark run of `binary`, by run name, and the
    median of each user counter (e.g. karcher_iterations) under "<run name>:<counter>"."""
    command = [binary, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
               "--benchmark_report_aggregates_only=true"]
    if benchmark_filter:
        command.append(f"--benchmark_filter={benchmark_filter}")
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            unit = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
            medians[b["run_name"]] = b["real_time"] * unit
            for key, value in b.items():
                if key not in ("real_time", "cpu_time", "iterations", "repetitions", "repetition_index",
                               "threads", "time_unit") and isinstance(value, (int, float)):
                    medians[f'{b["run_name"]}:{key}'] = value
    return medians


def parse_arguments(description):
    """The comparison scripts' command line: the Gyre benchmark binary and --repetitions."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=7)
    return parser.parse_args()
