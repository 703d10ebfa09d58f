#!/usr/bin/python3
"""SPDNet and GrNet forward + backward on one batch: Gyre against the same networks in PyTorch.

Usage: /usr/bin/python3 tests/bench/compare_torch_manifold_nets.py build/bench/tests/bench/gyre_bench_manifold_nets
Runs Gyre's Google Benchmark binary and Debian's PyTorch (CPU, float32, 2 threads) in the same run
and prints a Markdown table of medians with the ratios Gyre/torch. The torch networks are written
as SPDNet's and GrNet's public code writes them: eigenvalue layers through torch.linalg.eigh and
its autograd, re-orthonormalisation through torch.linalg.qr. Shapes (batch 256):
  SPDNet  BiMap 7->6 (1->8 ch) - ReEig - BiMap 6->4 (8->8) - ReEig - LogEig - Linear(128->10)
  GrNet   FRMap 28->12 (8 filters) - ReOrth - ProjMap - ProjPooling(2) - Linear(576->10), inputs Gr(28, 4)
Target (issue 13): Gyre's forward + backward <= 0.5x torch's.
"""
import argparse
import os

import torch

from bench_support import gyre_medians, median_seconds

BATCH = 256


def stiefel(*shape):
    """Random points with orthonormal columns, shape (..., n, p)."""
    q, r = torch.linalg.qr(torch.randn(*shape))
    return q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1)).unsqueeze(-2)


def spectral(x, f):
    s, u = torch.linalg.eigh(x)
    return u @ torch.diag_embed(f(s)) @ u.transpose(-1, -2)


def spdnet_step(x, w1, w2, lin_w, lin_b, upstream):
    # BiMap with channels: Y[o] = sum_i W[o,i]^T X[i] W[o,i]
    y = torch.einsum("oiab,niac,oicd->nobd", w1, x, w1)
    y = spectral(y, lambda s: torch.clamp(s, min=1e-4))
    y = torch.einsum("oiab,niac,oicd->nobd", w2, y, w2)
    y = spectral(y, lambda s: torch.clamp(s, min=1e-4))
    y = spectral(y, torch.log)
    logits = y.reshape(BATCH, -1) @ lin_w.T + lin_b
    (logits * upstream).sum().backward()


def grnet_step(x, w, lin_w, lin_b, upstream):
    y = torch.einsum("kmn,bnp->bkmp", w, x[:, 0])  # FRMap, 8 filters
    q, r = torch.linalg.qr(y)  # ReOrth
    q = q * torch.sign(torch.diagonal(r, dim1=-2, dim2=-1)).unsqueeze(-2)
    p = q @ q.transpose(-1, -2)  # ProjMap
    p = p.reshape(BATCH, 4, 2, 12, 12).mean(dim=2)  # ProjPooling over pairs
    logits = p.reshape(BATCH, -1) @ lin_w.T + lin_b
    (logits * upstream).sum().backward()


def torch_times(repetitions):
    torch.manual_seed(0)
    samples = torch.randn(BATCH, 1, 7, 50)
    x_spd = samples @ samples.transpose(-1, -2) / 50 + 1e-3 * torch.eye(7)
    w1 = stiefel(8, 1, 7, 6).requires_grad_(True)
    w2 = stiefel(8, 8, 6, 4).requires_grad_(True)
    lin1_w = (torch.randn(10, 128) * 0.05).requires_grad_(True)
    lin1_b = torch.zeros(10, requires_grad=True)
    x_gr = stiefel(BATCH, 1, 28, 4)
    w_fr = stiefel(8, 28, 12).transpose(-1, -2).contiguous().requires_grad_(True)
    lin2_w = (torch.randn(10, 576) * 0.05).requires_grad_(True)
    lin2_b = torch.zeros(10, requires_grad=True)
    upstream = torch.randn(BATCH, 10)
    spd = median_seconds(lambda: spdnet_step(x_spd, w1, w2, lin1_w, lin1_b, upstream), repetitions)
    gr = median_seconds(lambda: grnet_step(x_gr, w_fr, lin2_w, lin2_b, upstream), repetitions)
    return spd, gr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    g = gyre_medians(args.binary, args.repetitions)
    t_spd, t_gr = torch_times(args.repetitions)
    print(f"torch {torch.__version__}, {args.threads} threads, float32, batch {BATCH}, medians of {args.repetitions} runs\n")
    print("| forward + backward, one batch | Gyre | PyTorch | Gyre / torch |")
    print("|---|---|---|---|")
    for name, key, t in (("SPDNet, SPD(7) inputs", "BM_SpdNetForwardBackward", t_spd),
                         ("GrNet, Gr(28, 4) inputs", "BM_GrNetForwardBackward", t_gr)):
        gyre = next(v for k, v in g.items() if k.split("/")[0] == key and ":" not in k)
        print(f"| {name} | {gyre * 1e3:.2f} ms | {t * 1e3:.2f} ms | {gyre / t:.2f}x |")


if __name__ == "__main__":
    main()
