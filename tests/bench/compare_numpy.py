#!/usr/bin/python3
"""Batched SO(3) and S^15 exp/log: Gyre (Google Benchmark) against numpy/scipy, same machine, same run.

Usage: /usr/bin/python3 tests/bench/compare_numpy.py build/bench/tests/bench/gyre_bench_geometry
Prints a Markdown table of medians over --repetitions runs (default 7) and the ratio Gyre/peer.
The peers are vectorised over the whole batch: scipy.spatial.transform.Rotation for SO(3)
(rotation-vector conversions, Rodrigues in C) and plain numpy expressions for the sphere.
"""
import numpy as np
from scipy.spatial.transform import Rotation

from bench_support import gyre_medians, median_seconds, parse_arguments

BATCH = 10_000


def hat3(w):
    out = np.zeros(w.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2], out[..., 1, 2] = -w[..., 2], w[..., 1], -w[..., 0]
    out[..., 1, 0], out[..., 2, 0], out[..., 2, 1] = w[..., 2], -w[..., 1], w[..., 0]
    return out


def vee3(a):
    return np.stack([a[..., 2, 1], a[..., 0, 2], a[..., 1, 0]], axis=-1)


def so3_data(rng):
    x = Rotation.random(BATCH, random_state=rng).as_matrix()
    y = Rotation.random(BATCH, random_state=rng).as_matrix()
    v = x @ hat3(rng.standard_normal((BATCH, 3)))
    return x, v, y


def so3_exp(x, v):
    # exp_X(V) = X·expm(XᵀV)
    w = vee3(np.swapaxes(x, -1, -2) @ v)
    return x @ Rotation.from_rotvec(w).as_matrix()


def so3_log(x, y):
    # log_X(Y) = X·logm(XᵀY)
    w = Rotation.from_matrix(np.swapaxes(x, -1, -2) @ y).as_rotvec()
    return x @ hat3(w)


def sphere_data(rng, n=15):
    x = rng.standard_normal((BATCH, n + 1))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    y = rng.standard_normal((BATCH, n + 1))
    y /= np.linalg.norm(y, axis=1, keepdims=True)
    v = rng.standard_normal((BATCH, n + 1))
    v -= np.sum(v * x, axis=1, keepdims=True) * x
    return x, v, y


def sphere_exp(x, v):
    t = np.linalg.norm(v, axis=1, keepdims=True)
    return np.cos(t) * x + np.sinc(t / np.pi) * v


def sphere_log(x, y):
    c = np.sum(x * y, axis=1, keepdims=True)
    u = y - c * x
    s = np.linalg.norm(u, axis=1, keepdims=True)
    return np.arctan2(s, c) / s * u


def main():
    args = parse_arguments(__doc__.splitlines()[0])
    rng = np.random.default_rng(0)
    sx, sv, sy = so3_data(rng)
    px, pv, py = sphere_data(rng)
    peers = {
        "SO3_exp": median_seconds(lambda: so3_exp(sx, sv), args.repetitions),
        "SO3_log": median_seconds(lambda: so3_log(sx, sy), args.repetitions),
        "S15_exp": median_seconds(lambda: sphere_exp(px, pv), args.repetitions),
        "S15_log": median_seconds(lambda: sphere_log(px, py), args.repetitions),
    }
    gyre = gyre_medians(args.binary, args.repetitions, "SO3|S15")
    print(f"| work (batch of {BATCH}) | numpy/scipy | Gyre, 1 thread | Gyre, 2 threads | "
          "Gyre, 2 threads, ChecksOff | ratio Gyre/peer (2 threads; ChecksOff) |")
    print("|---|---|---|---|---|---|")
    for name, peer in peers.items():
        one = gyre[f"BM_{name}/1/1/real_time"]
        two = gyre[f"BM_{name}/2/1/real_time"]
        fast = gyre[f"BM_{name}/2/0/real_time"]
        print(f"| {name.replace('_', ' ')} | {peer * 1e3:.2f} ms | {one * 1e3:.2f} ms | {two * 1e3:.2f} ms | "
              f"{fast * 1e3:.2f} ms | {two / peer:.2f}; {fast / peer:.2f} |")


if __name__ == "__main__":
    main()
