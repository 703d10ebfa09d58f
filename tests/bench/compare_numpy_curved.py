#!/usr/bin/python3
"""Batched SPD(8) (affine-invariant) and Gr(16, 4) operations: Gyre against numpy/scipy, same run.

Usage: /usr/bin/python3 tests/bench/compare_numpy_curved.py build/bench/tests/bench/gyre_bench_geometry
Prints a Markdown table of medians over --repetitions runs (default 7) and the ratio peer/Gyre.
The peers are what a Python user writes, vectorised over the batch with numpy's stacked linalg:
  SPD log/exp   log_X(Y) = X^½ logm(X^-½ Y X^-½) X^½ (and expm for exp), X^±½ and logm/expm each
                through one batched eigh;
  Karcher mean  X ← X^½ expm(mean logm(X^-½ Pᵢ X^-½)) X^½ from the arithmetic mean (Gyre starts
                there too), until the step's norm ‖mean logm(…)‖_F (the AIM norm at X) is ≤ 1e-12,
                the tolerance the Gyre benchmark uses;
  Gr log        Edelman, Arias & Smith's formula: (I − UUᵀ)Y(UᵀY)⁻¹ = QΣVᵀ (batched solve and SVD),
                log_U(Y) = Q atan(Σ) Vᵀ.
Data: SPD eigenvalues exp(uniform(−1, 1)) in Haar-random eigenbases, Haar-random Grassmann
bases: the distributions of Gyre's random_point, which the benchmark uses.
"""
import numpy as np

from bench_support import gyre_medians, median_seconds, parse_arguments

BATCH = 10_000
MEAN_POINTS = 1_000
N = 8


def random_spd(rng, count):
    q, _ = np.linalg.qr(rng.standard_normal((count, N, N)))
    w = np.exp(rng.uniform(-1, 1, (count, N)))
    return (q * w[:, None, :]) @ np.swapaxes(q, -1, -2)


def random_symmetric(rng, count):
    s = rng.standard_normal((count, N, N))
    return (s + np.swapaxes(s, -1, -2)) / 2


def spectral(x, f):
    w, u = np.linalg.eigh(x)
    return (u * f(w)[..., None, :]) @ np.swapaxes(u, -1, -2)


def roots(x):
    w, u = np.linalg.eigh(x)
    ut = np.swapaxes(u, -1, -2)
    return (u * np.sqrt(w)[..., None, :]) @ ut, (u / np.sqrt(w)[..., None, :]) @ ut


def spd_log(x, y):
    s, si = roots(x)
    return s @ spectral(si @ y @ si, np.log) @ s


def spd_exp(x, v):
    s, si = roots(x)
    return s @ spectral(si @ v @ si, np.exp) @ s


def karcher_mean(points, tolerance=1e-12, max_iterations=200):
    x = points.mean(axis=0)
    for iteration in range(1, max_iterations + 1):
        s, si = roots(x)
        step = spectral(si @ points @ si, np.log).mean(axis=0)
        if np.linalg.norm(step) <= tolerance:
            return x, iteration
        x = s @ spectral(step, np.exp) @ s
    raise RuntimeError("Karcher iteration did not converge")


def random_bases(rng, count, n=16, p=4):
    q, _ = np.linalg.qr(rng.standard_normal((count, n, p)))
    return q


def grassmann_log(u, y):
    uty = np.swapaxes(u, -1, -2) @ y
    a = y - u @ uty
    # a·(UᵀY)⁻¹ as the solve (UᵀY)ᵀ·Xᵀ = aᵀ
    m = np.swapaxes(np.linalg.solve(np.swapaxes(uty, -1, -2), np.swapaxes(a, -1, -2)), -1, -2)
    q, sigma, vt = np.linalg.svd(m, full_matrices=False)
    return (q * np.arctan(sigma)[..., None, :]) @ vt


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    rng = np.random.default_rng(0)
    x, y = random_spd(rng, BATCH), random_spd(rng, BATCH)
    sqrt_x = roots(x)[0]
    v = sqrt_x @ random_symmetric(rng, BATCH) @ sqrt_x  # tangent vectors X^½ S X^½
    points = random_spd(rng, MEAN_POINTS)
    u, w = random_bases(rng, BATCH), random_bases(rng, BATCH)
    _, peer_iterations = karcher_mean(points)
    peers = {
        "SPD8_log": ("AIM log of 10⁴ SPD(8)", median_seconds(lambda: spd_log(x, y), args.repetitions)),
        "SPD8_exp": ("AIM exp of 10⁴ SPD(8)", median_seconds(lambda: spd_exp(x, v), args.repetitions)),
        "SPD8_mean": (f"AIM Karcher mean of 10³ SPD(8), step ≤ 1e-12 (numpy: {peer_iterations} iterations)",
                      median_seconds(lambda: karcher_mean(points), args.repetitions)),
        "Gr16_4_log": ("Gr(16, 4) log of 10⁴ pairs", median_seconds(lambda: grassmann_log(u, w), args.repetitions)),
    }
    gyre = gyre_medians(args.binary, args.repetitions, "SPD8|Gr16")
    print("| work | numpy/scipy | Gyre, 1 thread | Gyre, 2 threads | Gyre, 2 threads, ChecksOff | "
          "speed-up over numpy (2 threads; ChecksOff) |")
    print("|---|---|---|---|---|---|")
    for name, (label, peer) in peers.items():
        one = gyre[f"BM_{name}/1/1/real_time"]
        two = gyre[f"BM_{name}/2/1/real_time"]
        fast = gyre[f"BM_{name}/2/0/real_time"]
        iterations = gyre.get(f"BM_{name}/2/1/real_time:karcher_iterations")
        if iterations is not None:
            label += f" (Gyre: {iterations:.0f})"
        print(f"| {label} | {peer * 1e3:.1f} ms | {one * 1e3:.1f} ms | {two * 1e3:.1f} ms | {fast * 1e3:.1f} ms | "
              f"{peer / two:.1f}×; {peer / fast:.1f}× |")


if __name__ == "__main__":
    main()
