#!/usr/bin/python3
"""Riemannian batch norms, forward + backward on one training batch: Gyre against the same computation in PyTorch.

Usage: /usr/bin/python3 tests/bench/compare_torch_batch_norm.py build/release/tests/bench/gyre_bench_batch_norm
Runs Gyre's Google Benchmark binary and Debian's PyTorch (CPU, float32, 2 threads) in the same run
and prints a Markdown table of medians with the ratios Gyre/torch. Cases (one channel, batch 64):
  LieBN-LEM   64 SPD(16) matrices (A·Aᵀ/16 + I), log-Euclidean metric (α, β) = (1, 0)
  LieBN-AIM   the same matrices, affine-invariant metric, θ = 1, (α, β) = (1, 0)
  GyroBN-Gr   64 points of Gr(16, 4), principal angles < π/4 from a common base
The torch side is written as the reference code computes these layers (GitZH-Chen/LieBN,
LieBN/Geometry/SPD/SPDMatrices.py; GitZH-Chen/GyroBN, RieNets/grnets/GrBN/GrGroBNImpl.py), with
autograd for the backward pass:
  LEM   deformation logm, arithmetic mean, subtraction, scaling by f, biasing by + logm(P), expm;
  AIM   Karcher start at the arithmetic mean and K = 1 step (stopping if ‖G‖_F ≤ 0.1), translation
        L⁻¹·X·L⁻ᵀ (L = chol M), variance ‖logm(·)‖_F², scaling X^f, biasing L_P·X·L_Pᵀ;
  Gr    Karcher from the first item, K = 1 step (p×p SVD log, thin-SVD exp + QR), variance from the
        principal angles, gyro-translation expm(−Ω_M)·X, gyro-scaling expm(f·Ω_X)·I_{n,p}, biasing
        expm(Ω_B)·X with the true exponential (exp_mode='expm', not the reference's default Cayley).
Every matrix function of a symmetric matrix (logm, expm, sqrt, M^-½, X^f) is one torch.linalg.eigh
with the Daleckii–Krein backward, as the reference's sym_functional does (it uses SVD for some of
them; eigh is the cheaper of the two); X^f also passes its gradient to the scale f (the reference
returns none, Gyre does). Two rows per layer:
  reference  Gyre with detach_statistics, mean_mode kReference, karcher_steps 1: the same work as
             the torch code with .detach() on the batch statistics (the references' default);
  default    Gyre's default (converged Karcher mean, gradient through the mean and variance)
             against the torch reference code without .detach() (GyroBN's code always detaches) —
             different work: Gyre iterates its mean to convergence and differentiates it exactly.
Running statistics are updated on both sides. Target (issue 14 item 7): Gyre's forward + backward
<= 0.5x torch's on the reference rows.
"""
import argparse
import os

import torch

from bench_support import gyre_medians, median_seconds

BATCH = 64
SPD_N = 16
GR_N, GR_P = 16, 4
EPS = 1e-5
MOMENTUM = 0.1
LOEWNER_GAP = 1e-4  # eigenvalues closer than this use f' in the Loewner matrix (the reference's float32 threshold)


def sym(x):
    return (x + x.transpose(-1, -2)) / 2


def loewner(s, fs, dfs):
    """The divided differences [f(λᵢ) − f(λⱼ)]/(λᵢ − λⱼ), with f'(λ) on (near-)equal eigenvalues."""
    gap = s.unsqueeze(-1) - s.unsqueeze(-2)
    close = gap.abs() < LOEWNER_GAP
    slope = (fs.unsqueeze(-1) - fs.unsqueeze(-2)) / torch.where(close, torch.ones_like(gap), gap)
    return torch.where(close, (dfs.unsqueeze(-1) + dfs.unsqueeze(-2)) / 2, slope)


class EigenFunctions(torch.autograd.Function):
    """(U·f₁(Λ)·Uᵀ, U·f₂(Λ)·Uᵀ, …) from one torch.linalg.eigh; functions = ((f₁, f₁'), …)."""

    @staticmethod
    def forward(ctx, x, functions):
        s, u = torch.linalg.eigh(x)
        ctx.functions = functions
        ctx.save_for_backward(s, u)
        ut = u.transpose(-1, -2)
        return tuple(u @ torch.diag_embed(f(s)) @ ut for f, _ in functions)

    @staticmethod
    def backward(ctx, *grads):
        s, u = ctx.saved_tensors
        ut = u.transpose(-1, -2)
        inner = 0
        for (f, df), g in zip(ctx.functions, grads):
            inner = inner + loewner(s, f(s), df(s)) * (ut @ sym(g) @ u)
        return u @ inner @ ut, None


class SpdPower(torch.autograd.Function):
    """X^t = U·Λ^t·Uᵀ for a batch (B, C, n, n) and per-channel exponents t (C, 1, 1), gradient to both."""

    @staticmethod
    def forward(ctx, x, t):
        s, u = torch.linalg.eigh(x)
        st = s ** t.squeeze(-1)
        ctx.save_for_backward(s, st, u, t)
        return u @ torch.diag_embed(st) @ u.transpose(-1, -2)

    @staticmethod
    def backward(ctx, g):
        s, st, u, t = ctx.saved_tensors
        ut = u.transpose(-1, -2)
        rotated = ut @ sym(g) @ u
        grad_x = u @ (loewner(s, st, t.squeeze(-1) * st / s) * rotated) @ ut
        # ∂/∂t tr(Gᵀ·U·Λ^t·Uᵀ) = Σᵢ (UᵀGU)ᵢᵢ·λᵢ^t·log λᵢ
        grad_t = (torch.diagonal(rotated, dim1=-2, dim2=-1) * st * torch.log(s)).sum(dim=(0, -1))
        return grad_x, grad_t.reshape(t.shape)


LOG = (torch.log, torch.reciprocal)
EXP = (torch.exp, torch.exp)
SQRT = (torch.sqrt, lambda s: 0.5 / torch.sqrt(s))
INV_SQRT = (torch.rsqrt, lambda s: -0.5 * torch.rsqrt(s) / s)


def logm(x):
    return EigenFunctions.apply(x, (LOG,))[0]


def expm(x):
    return EigenFunctions.apply(x, (EXP,))[0]


def sqrt_inv_sqrt(x):
    return EigenFunctions.apply(x, (SQRT, INV_SQRT))


def spd_power(x, t):
    return EigenFunctions.apply(x, ((lambda s: s ** t, lambda s: t * s ** (t - 1)),))[0]


class LieBnSpd:
    """LieBN on SPD(n) under LEM or AIM (θ = 1, α = 1, β = 0), one channel, as the reference computes it."""

    def __init__(self, metric, detach):
        self.metric, self.detach = metric, detach
        self.weight = torch.eye(SPD_N).unsqueeze(0).requires_grad_(True)  # bias P (C, n, n), an SPD point
        self.shift = torch.ones(1, 1, 1, requires_grad=True)  # scale s (C, 1, 1)
        self.running_mean = torch.eye(SPD_N).unsqueeze(0)
        self.running_var = torch.ones(1, 1, 1)

    def karcher_mean(self, d):
        mean = d.mean(dim=0)
        for _ in range(1):
            root, inv_root = sqrt_inv_sqrt(mean)
            g = logm(inv_root @ d @ inv_root).mean(dim=0)
            if torch.all(torch.linalg.matrix_norm(g) <= 0.1):
                break
            mean = root @ expm(g) @ root
        return mean

    def forward(self, x):
        if self.metric == "LEM":
            d, bias = logm(x), logm(self.weight)
            stats = d.detach() if self.detach else d
            mean = stats.mean(dim=0)
            centred = d - mean
            var_input = centred.detach() if self.detach else centred
            var = torch.linalg.matrix_norm(var_input, keepdim=True).square().mean(dim=0)
            factor = self.shift / (var + EPS).sqrt()
            y = expm(centred * factor + bias)
        else:
            stats = x.detach() if self.detach else x
            mean = self.karcher_mean(stats)
            l_inv = torch.linalg.inv(torch.linalg.cholesky(mean))
            centred = l_inv @ x @ l_inv.transpose(-1, -2)
            var_input = centred.detach() if self.detach else centred
            var = torch.linalg.matrix_norm(logm(var_input)).square().mean(dim=0).reshape(-1, 1, 1)
            factor = self.shift / (var + EPS).sqrt()
            l_bias = torch.linalg.cholesky(self.weight)
            y = l_bias @ SpdPower.apply(centred, factor) @ l_bias.transpose(-1, -2)
        with torch.no_grad():
            if self.metric == "LEM":
                self.running_mean = (1 - MOMENTUM) * self.running_mean + MOMENTUM * mean
            else:
                root, inv_root = sqrt_inv_sqrt(self.running_mean)
                self.running_mean = root @ spd_power(inv_root @ mean @ inv_root, MOMENTUM) @ root
            self.running_var = (1 - MOMENTUM) * self.running_var + MOMENTUM * var
        return y


def skew_from_block(b):
    """[[0, −Bᵀ], [B, 0]] ∈ Skew(n) from the (n − p)×p block B."""
    p = b.shape[-1]
    top = torch.cat([torch.zeros(*b.shape[:-2], p, p), -b.transpose(-1, -2)], dim=-1)
    bottom = torch.cat([b, torch.zeros(*b.shape[:-2], b.shape[-2], b.shape[-2])], dim=-1)
    return torch.cat([top, bottom], dim=-2)


def gr_log(u0, u1):
    """Log_{U0}(U1) on Gr(n, p) from one p×p SVD (Bendokat et al. 2024, Alg. 5.3)."""
    q, c, rh = torch.linalg.svd(u1.transpose(-1, -2) @ u0)
    u1_adapted = u1 @ q
    h = u1_adapted - u0 @ (u0.transpose(-1, -2) @ u1_adapted)
    sines = torch.sqrt(1 - c.clamp(0, 1) ** 2)
    angles = torch.asin(sines)
    ratio = torch.where(sines != 0, angles / sines, angles)
    return (h * ratio.unsqueeze(-2)) @ rh


def gr_log_identity_block(u):
    """The lower (n − p)×p block of Log_{I_{n,p}}(U) (its upper block is 0), from the p×p SVD of U's top."""
    p = u.shape[-1]
    q, c, rh = torch.linalg.svd(u[..., :p, :].transpose(-1, -2))
    sines = torch.sqrt(1 - c.clamp(0, 1) ** 2)
    angles = torch.asin(sines)
    ratio = torch.where(sines != 0, angles / sines, angles)
    return ((u[..., p:, :] @ q) * ratio.unsqueeze(-2)) @ rh


def gr_exp(u0, delta):
    """Exp_{U0}(Δ) = (U0·V·cos Σ + Q·sin Σ)·Vᵀ with Δ = Q·Σ·Vᵀ, re-orthonormalised by a sign-fixed QR."""
    q, sigma, vh = torch.linalg.svd(delta, full_matrices=False)
    y = (u0 @ vh.transpose(-1, -2) * torch.cos(sigma).unsqueeze(-2) + q * torch.sin(sigma).unsqueeze(-2)) @ vh
    qr, r = torch.linalg.qr(y)
    return qr * torch.sign(torch.sign(torch.diagonal(r, dim1=-2, dim2=-1)) + 0.5).unsqueeze(-2)


class GyroBnGrassmann:
    """GyroBN on Gr(n, p), one channel, as the reference computes it with exp_mode='expm' (always detached)."""

    def __init__(self):
        self.bias = torch.zeros(1, GR_N - GR_P, GR_P, requires_grad=True)  # exponential coordinates at I_{n,p}
        self.shift = torch.ones(1, 1, 1, requires_grad=True)
        self.running_mean = torch.eye(GR_N, GR_P).unsqueeze(0)
        self.running_var = torch.ones(1, 1, 1)

    def forward(self, x):
        items = x.detach()
        mean = items[0]
        for _ in range(1):
            mean = gr_exp(mean, gr_log(mean, items).mean(dim=0))
        cosines = torch.linalg.svdvals(items.transpose(-1, -2) @ mean).clamp(-1, 1)
        var = torch.linalg.vector_norm(torch.acos(cosines), dim=-1).square().mean(dim=0).reshape(-1, 1, 1)
        centred = torch.linalg.matrix_exp(-skew_from_block(gr_log_identity_block(mean))) @ x
        factor = self.shift / (var + EPS).sqrt()
        scaled = torch.linalg.matrix_exp(factor * skew_from_block(gr_log_identity_block(centred)))[..., :GR_P]
        y = torch.linalg.matrix_exp(skew_from_block(self.bias)) @ scaled
        with torch.no_grad():
            self.running_mean = gr_exp(self.running_mean, MOMENTUM * gr_log(self.running_mean, mean))
            self.running_var = (1 - MOMENTUM) * self.running_var + MOMENTUM * var
        return y


def step(layer, x, upstream):
    for parameter in (getattr(layer, "weight", None), getattr(layer, "bias", None), layer.shift):
        if parameter is not None:
            parameter.grad = None
    (layer.forward(x) * upstream).sum().backward()


def spd_batch():
    a = torch.randn(BATCH, 1, SPD_N, SPD_N)
    return a @ a.transpose(-1, -2) / 16 + torch.eye(SPD_N)


def grassmann_batch():
    """(Q·cos Θ + Q⊥·S·sin Θ)·R: principal angles Θ ∈ [0.05, 0.75] (< π/4) from a common random base Q."""
    o, _ = torch.linalg.qr(torch.randn(GR_N, GR_N))
    base, complement = o[:, :GR_P], o[:, GR_P:]
    s, _ = torch.linalg.qr(torch.randn(BATCH, 1, GR_N - GR_P, GR_P))
    theta = 0.05 + 0.7 * torch.rand(BATCH, 1, 1, GR_P)
    rotation, _ = torch.linalg.qr(torch.randn(BATCH, 1, GR_P, GR_P))
    return (base * torch.cos(theta) + complement @ s * torch.sin(theta)) @ rotation


def torch_times(repetitions):
    torch.manual_seed(0)
    x_spd, x_gr = spd_batch(), grassmann_batch()
    up_spd, up_gr = torch.randn_like(x_spd), torch.randn_like(x_gr)
    times = {}
    for metric in ("LEM", "AIM"):
        for detach in (True, False):
            layer = LieBnSpd(metric, detach)
            times[(metric, detach)] = median_seconds(lambda: step(layer, x_spd, up_spd), repetitions)
    layer = GyroBnGrassmann()
    times[("Gr", True)] = times[("Gr", False)] = median_seconds(lambda: step(layer, x_gr, up_gr), repetitions)
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("binary")
    parser.add_argument("--repetitions", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    g = gyre_medians(args.binary, args.repetitions)
    t = torch_times(args.repetitions)
    print(f"torch {torch.__version__}, {args.threads} threads, float32, batch {BATCH}, one channel, "
          f"medians of {args.repetitions} runs\n")
    print("| forward + backward, one batch | Gyre | PyTorch | Gyre / torch |")
    print("|---|---|---|---|")
    rows = (("LieBN-LEM, SPD(16), reference", "BM_LieBnLemReference", ("LEM", True)),
            ("LieBN-AIM, SPD(16), reference", "BM_LieBnAimReference", ("AIM", True)),
            ("GyroBN, Gr(16, 4), reference", "BM_GyroBnGrassmannReference", ("Gr", True)),
            ("LieBN-LEM, SPD(16), Gyre default vs torch undetached *", "BM_LieBnLemDefault", ("LEM", False)),
            ("LieBN-AIM, SPD(16), Gyre default vs torch undetached *", "BM_LieBnAimDefault", ("AIM", False)),
            ("GyroBN, Gr(16, 4), Gyre default vs torch reference *", "BM_GyroBnGrassmannDefault", ("Gr", False)))
    for name, key, case in rows:
        gyre = next(v for k, v in g.items() if k.split("/")[0] == key and ":" not in k)
        iterations = next((v for k, v in g.items() if k.split("/")[0] == key and k.endswith(":karcher_iterations")),
                          None)
        if iterations is not None and "default" in name:
            name += " (exact mean)" if iterations == 0 else f" ({iterations:g} Karcher steps)"
        print(f"| {name} | {gyre * 1e3:.2f} ms | {t[case] * 1e3:.2f} ms | {gyre / t[case]:.2f}x |")
    print("\n* different work: Gyre's converged mean with exact gradients through the statistics against the "
          "reference's one Karcher step (GyroBN's torch code always detaches its statistics).")


if __name__ == "__main__":
    main()
