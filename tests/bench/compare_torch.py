#!/usr/bin/python3
"""R2Conv (C8, 16 regular fields, k=5, padding 2, input 8x128x64x64 float32) against PyTorch's conv2d.

Usage: /usr/bin/python3 tests/bench/compare_torch.py build/bench/tests/bench/gyre_bench_r2conv
Runs Gyre's Google Benchmark binary and Debian's PyTorch (CPU, 2 threads) in the same run, several
repetitions each, and prints a Markdown table of medians with the ratios Gyre/torch.

The peer is what an escnn user runs after expanding the filter: torch.nn.functional.conv2d on a
(128, 128, 5, 5) filter. Its speed does not depend on the filter's values, so a random filter of the
same shape stands in for the expanded one. Targets (the issue): forward <= 1.0x, forward+backward
<= 1.5x, basis construction < 10 ms.
"""
import argparse
import json
import os
import subprocess

import torch
import torch.nn.functional as F

from bench_support import median_seconds  # its warm-up call also lets oneDNN pick and cache kernels


def torch_times(repetitions, threads):
    torch.set_num_threads(threads)
    torch.manual_seed(0)
    x = torch.randn(8, 128, 64, 64)
    w = torch.randn(128, 128, 5, 5) * 0.01
    b = torch.zeros(128)

    def forward():
        with torch.no_grad():
            F.conv2d(x, w, b, padding=2)

    xg = x.clone().requires_grad_(True)
    wg = w.clone().requires_grad_(True)

    def forward_backward():
        y = F.conv2d(xg, wg, b, padding=2)
        y.backward(y.detach())
        xg.grad = None
        wg.grad = None

    return median_seconds(forward, repetitions), median_seconds(forward_backward, repetitions)


def gyre_times(binary, repetitions, threads):
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    out = subprocess.run(
        [binary, f"--benchmark_repetitions={repetitions}", "--benchmark_report_aggregates_only=true",
         "--benchmark_format=json"],
        check=True, capture_output=True, text=True, env=env).stdout
    medians = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") == "median":
            unit = {"ms": 1e-3, "us": 1e-6, "ns": 1e-9, "s": 1.0}[b["time_unit"]]
            medians[b["run_name"].split("/")[0]] = b["real_time"] * unit
    return medians


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    t_fwd, t_fwd_bwd = torch_times(args.repetitions, args.threads)
    g = gyre_times(args.binary, args.repetitions, args.threads)
    g_fwd = g["BM_R2ConvForwardEval"]
    g_fwd_bwd = g["BM_R2ConvForwardBackwardTrain"]
    g_basis = g["BM_R2ConvBasisConstruction"]
    print(f"torch {torch.__version__}, {args.threads} threads, medians of {args.repetitions} runs\n")
    print("| R2Conv C8, 16 regular fields, k=5, 8x128x64x64 float32 | Gyre | PyTorch conv2d | Gyre / torch |")
    print("|---|---|---|---|")
    print(f"| forward (eval, filter expanded) | {g_fwd:.3f} s | {t_fwd:.3f} s | {g_fwd / t_fwd:.2f}x |")
    print(f"| forward + backward (train) | {g_fwd_bwd:.3f} s | {t_fwd_bwd:.3f} s | {g_fwd_bwd / t_fwd_bwd:.2f}x |")
    print(f"| basis construction (uncached) | {g_basis * 1e3:.2f} ms | - | - |")


if __name__ == "__main__":
    main()
