#!/usr/bin/env python3
"""ridge_attention_f32 against PyTorch's CPU scaled_dot_product_attention, in one process.

Both read the same [batch, seq, heads, head_dim] float32 tensors (torch gets views transposed
to [batch, heads, seq, head_dim], as its API asks; grouped-query heads through enable_gqa).
Each round times one call of each, in alternating order, after a warm-up call of each; reported
per case: the medians over rounds, ridge's rate over torch's, and the largest difference
between the two outputs (both float32; they must agree to 1e-4 of the output's scale).

usage: python3 bench/attention/torch_sdpa.py PATH/libridge.so [--threads N] [--rounds N]
"""
import argparse
import ctypes
import statistics
import sys
import time

# (name, batch, q_len, kv_len, q_heads, kv_heads, head_dim, causal)
CASES = [
    ("prefill", 1, 2048, 2048, 16, 16, 128, False),
    ("prefill, causal", 1, 2048, 2048, 16, 16, 128, True),
    ("decoding, 32/8 heads", 1, 1, 16384, 32, 8, 128, False),
    ("decoding, batch 4", 4, 1, 4096, 32, 8, 128, False),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("libridge")
    parser.add_argument("--threads", type=int, default=0, help="both sides (default: all CPUs)")
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()

    import torch

    lib = ctypes.CDLL(args.libridge)
    f32p = ctypes.POINTER(ctypes.c_float)
    lib.ridge_attention_f32.argtypes = [f32p] * 4 + [ctypes.c_int64] * 6 + [ctypes.c_float,
                                                                            ctypes.c_int]
    lib.ridge_attention_f32.restype = ctypes.c_int
    lib.ridge_version.restype = ctypes.c_char_p
    if args.threads > 0:
        lib.ridge_set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    print(f"torch {torch.__version__} on {torch.get_num_threads()} threads; ridge "
          f"{lib.ridge_version().decode()} on {lib.ridge_get_num_threads()} threads; "
          f"{args.rounds} alternated rounds")
    print(f"{'case':24} {'ridge ms':>9} {'torch ms':>9} {'ridge/torch speed':>17} {'max diff':>9}")
    torch.manual_seed(0)
    for name, b, lq, lk, hq, hk, d, causal in CASES:
        q = torch.randn(b, lq, hq, d)
        k = torch.randn(b, lk, hk, d)
        v = torch.randn(b, lk, hk, d)
        out = torch.empty(b, lq, hq, d)

        def ptr(t):
            return ctypes.cast(t.data_ptr(), f32p)

        def run_ridge():
            code = lib.ridge_attention_f32(ptr(q), ptr(k), ptr(v), ptr(out), b, lq, lk, hq, hk, d,
                                           0.0, int(causal))
            if code != 0:
                sys.exit(f"ridge_attention_f32 returned {code}")

        qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
        # torch's causal mask is aligned to the top left; ridge's (and decoding's) to the bottom
        # right. The two agree when q_len == kv_len, the only causal cases here.
        def run_torch():
            return torch.nn.functional.scaled_dot_product_attention(
                qt, kt, vt, is_causal=causal, enable_gqa=hk != hq)

        run_ridge()
        theirs = run_torch()
        times = {"ridge": [], "torch": []}
        for r in range(args.rounds):
            order = [("ridge", run_ridge), ("torch", run_torch)]
            for side, call in (order if r % 2 == 0 else order[::-1]):
                start = time.perf_counter()
                call()
                times[side].append(time.perf_counter() - start)
        mine = statistics.median(times["ridge"]) * 1e3
        other = statistics.median(times["torch"]) * 1e3
        diff = float((out - theirs.transpose(1, 2)).abs().max())
        scale = float(theirs.abs().max())
        print(f"{name:24} {mine:9.2f} {other:9.2f} {other / mine:17.3f} {diff:9.2e}")
        if diff > 1e-4 * max(scale, 1.0):
            sys.exit(f"{name}: ridge and torch differ by {diff} (output scale {scale})")


if __name__ == "__main__":
    main()
