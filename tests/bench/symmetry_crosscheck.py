"""Issue 15's measured numbers through `gyre layer`, from Python (Debian's /usr/bin/python3):

1. aliasing — for each subsampling, the equivariance error to the FULL group of the reconstruction
   R·f, mean over white signals f and every g of ‖R λ_g f − λ_g R f‖ / ‖f‖, for Gyre's anti-aliased
   R = U·D and naive subsampling R = U·S (the reference's analytical mode with its equivariance
   correction reduces to (1/k)·S, the naive row);
2. degenerate frames — the invariance error of frame averaging a random MLP over regular polygons
   and a cube, with Gyre's frames (`gyre layer frame`) and with the reference's rule (numpy's eigh
   basis and its 2^d sign flips).

usage: symmetry_crosscheck.py build/release/src/tools/gyre
"""
import json
import subprocess
import sys

import numpy as np


def ask(binary, requests):
    lines = "\n".join(json.dumps(r) for r in requests) + "\n"
    out = subprocess.run([binary, "layer"], input=lines, capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def elements(kind, n):
    return [(0, r) for r in range(n)] + ([(1, r) for r in range(n)] if kind == "dn" else [])


def left_translation(kind, n, g):
    """e_x ↦ e_{g·x} with (f₁, r₁)(f₂, r₂) = (f₁ ⊕ f₂, r₁ + (−1)^f₁ r₂): escnn's law, node f·N + r."""
    size = len(elements(kind, n))
    m = np.zeros((size, size))
    for x, (f, r) in enumerate(elements(kind, n)):
        gf, gr = g
        m[(gf ^ f) * n + (gr + (-1) ** gf * r) % n, x] = 1
    return m


def aliasing(binary):
    cases = [("cn", 8, 2, "same"), ("cn", 12, 3, "same"), ("cn", 16, 4, "same"), ("dn", 8, 2, "same"),
             ("dn", 12, 3, "same"), ("dn", 8, 2, "rotations"), ("dn", 12, 4, "rotations")]
    rng = np.random.default_rng(0)
    rows = []
    for kind, n, rate, family in cases:
        size = len(elements(kind, n))
        reply = ask(binary, [{"layer": "group_downsample", "group": kind, "N": n, "rate": rate, "subgroup": family,
                              "input": [0.0] * size}])[0]
        d, u, indices = np.array(reply["operator"]), np.array(reply["upsample"]), reply["indices"]
        s = np.zeros((len(indices), size))
        s[np.arange(len(indices)), indices] = 1
        errors = {"anti-aliased": [], "naive": []}
        for _ in range(50):
            f = rng.normal(size=size)
            for g in elements(kind, n):
                lam = left_translation(kind, n, g)
                for name, r in (("anti-aliased", u @ d), ("naive", u @ s)):
                    errors[name].append(np.linalg.norm(r @ lam @ f - lam @ r @ f) / np.linalg.norm(f))
        rows.append((f"{kind.upper()[0]}{n} → {reply['subgroup_name']} (rate {rate})",
                     np.mean(errors["anti-aliased"]), np.mean(errors["naive"])))
    return rows


def mlp(x, w):
    """A random tanh MLP with biases (without them it is odd, and the −I in every O(d) frame averages it to 0)."""
    w1, b1, w2 = w
    return w2 @ np.tanh(w1 @ x.ravel() + b1)


def averaged(cloud, rotations, centre, w):
    return np.mean([mlp((cloud - centre) @ r, w) for r in rotations], axis=0)


def reference_frame(cloud):
    """The reference's E(d) frame: centroid, eigh of the unnormalised scatter, all 2^d sign flips."""
    centre = cloud.mean(axis=0)
    _, vectors = np.linalg.eigh((cloud - centre).T @ (cloud - centre))
    d = cloud.shape[1]
    signs = np.array(np.meshgrid(*[[1, -1]] * d)).reshape(d, -1).T
    return [vectors * s for s in signs], centre


def random_rotation(d, rng):
    q, r = np.linalg.qr(rng.normal(size=(d, d)))
    return q * np.sign(np.diag(r))


def degenerate_frames(binary):
    shapes = {}
    for n in (3, 4, 6, 8):
        angles = 0.3 + 2 * np.pi * np.arange(n) / n
        shapes[f"regular {n}-gon"] = np.stack([np.cos(angles), np.sin(angles)], axis=1) * 1.5
    shapes["cube"] = np.array([[(i & 1) * 2 - 1, (i & 2) - 1, (i & 4) / 2 - 1] for i in range(8)], dtype=float)
    rng = np.random.default_rng(1)
    rows = []
    for name, cloud in shapes.items():
        p, d = cloud.shape
        w = (rng.normal(size=(16, p * d)) / 2, rng.normal(size=16) / 2, rng.normal(size=(3, 16)))
        worst = {"gyre": 0.0, "reference": 0.0}
        for _ in range(20):
            q, b = random_rotation(d, rng), rng.normal(size=d)
            moved = cloud @ q.T + b
            for who in worst:
                outputs = []
                for x in (cloud, moved):
                    if who == "gyre":
                        reply = ask(binary, [{"layer": "frame", "group": "e", "n": d, "input": x.tolist()}])[0]
                        rotations, centre = [np.array(r) for r in reply["frame"]], np.array(reply["translation"])
                    else:
                        rotations, centre = reference_frame(x)
                    outputs.append(averaged(x, rotations, centre, w))
                error = np.linalg.norm(outputs[1] - outputs[0]) / np.linalg.norm(outputs[0])
                worst[who] = max(worst[who], error)
        size = len(ask(binary, [{"layer": "frame", "group": "e", "n": d, "input": cloud.tolist()}])[0]["frame"])
        rows.append((name, size, worst["gyre"], worst["reference"]))
    return rows


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/release/src/tools/gyre"
    print("| subsampling | anti-aliased (Gyre) | naive subsampling |")
    print("|---|---|---|")
    for name, anti, naive in aliasing(binary):
        print(f"| {name} | {anti:.3g} | {naive:.3g} |")
    print()
    print("| cloud (E(d)) | Gyre's |F| | invariance error, Gyre | invariance error, reference's frame |")
    print("|---|---|---|---|")
    for name, size, ours, theirs in degenerate_frames(binary):
        print(f"| {name} | {size} | {ours:.2g} | {theirs:.2g} |")


if __name__ == "__main__":
    main()
