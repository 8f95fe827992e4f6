#!/usr/bin/python3
"""Measure the float32 power tables torch builds in slime's chunked_discounted_returns.

Run with Debian's torch (python3-torch 1.13.1), not a pip one:
    /usr/bin/python3 scripts/torch_pow_tables.py > src/core/torchPow/fixtures/torchPowTables.json
    npx biome format --write src/core/torchPow/fixtures/torchPowTables.json   # the committed layout

For every (CPU capability, thread count, discount, chunk size) it evaluates exactly slime's two
expressions (slime/utils/ppo_utils.py, chunked_discounted_returns):
    pow_vec = discount ** torch.arange(1, C + 1, dtype=torch.float32)
    M[mask] = discount ** diff[mask].to(torch.float32)          (mask = diff >= 0)
and records them compactly: each table as the entries that differ from the correctly rounded
fl32(fl32(d)^k) (index, signed ulp offset), M as its row 0 plus the entries that are not
row0[j - i] (M is not always Toeplitz), and a hash of each table's float32 bits so the
decoding in the test is checked too. It also samples SLEEF's scalar powf u10 with FMA and
glibc's powf through ctypes, the two functions the emulation ports.

Each capability runs in a child process: ATEN_CPU_CAPABILITY must be set before torch loads.
"""

import ctypes
import json
import os
import struct
import subprocess
import sys

CAPABILITIES = ["avx2", "default"]
COLUMNS = ["discount", "chunk_size", "pow_vec_ulps", "M_row0_ulps", "M_patches", "pow_vec_hash", "M_row0_hash", "M_hash"]
CHUNKS = [1, 2, 3, 4, 5, 6, 7, 8, 15, 16, 17, 31, 32, 33, 37, 64, 100, 127, 128, 129, 255, 256, 257, 300, 512, 1000, 1024]
# Thread counts above one only change calls of more than 32768 elements (at::internal::GRAIN_SIZE).
THREADED_CHUNKS = [256, 257, 300, 301, 512, 1000, 1023, 1024]


def discounts():
    import random

    rng = random.Random(19)
    fixed = [
        0.99, 0.9, 0.9405, 0.95 * 0.99, 0.99 * 0.95, 0.999, 0.9999, 0.5, 0.25, 1.0, 0.3, 0.1, 0.7, 0.8, 0.95,
        0.98, 0.995, 0.97 * 0.9, 1e-3, 1e-20, 1e-40, 1e-45, 0.99999994, 0.9999999, 0.5000001, -0.5, -0.99,
        1.01, 1.5, 2.0, 0.5495936876730595,
    ]
    return fixed + [rng.random() for _ in range(24)] + [1 - rng.random() * 1e-3 for _ in range(8)]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def table_hash(bits):
    """sum of bits[i]·P^(i+1) mod 2^32, P = 0x01000193: a position-sensitive hash numpy computes at once."""
    import numpy as np

    b = np.asarray(bits, dtype=np.uint32)
    if b.size == 0:
        return 0
    powers = np.cumprod(np.full(b.size, 0x01000193, dtype=np.uint32), dtype=np.uint32)
    return int(np.sum(b * powers, dtype=np.uint32))


_CR_CACHE = {}


def correctly_rounded_table(base_bits, n):
    """fl32(b^k) bits for k = 0 … n-1, b the float32 with these bits: the exact integer power rounded
    to nearest even (b = m·2^e, so b^k = m^k·2^(e·k))."""
    key = (base_bits, n)
    if key in _CR_CACHE:
        return _CR_CACHE[key]
    b = struct.unpack("<f", struct.pack("<I", base_bits))[0]
    out = []
    if b == 0 or b != b or abs(b) == float("inf"):
        out = [f32_bits(b**k if k else 1.0) for k in range(n)]
    else:
        m, e = abs(b), 0
        while m != int(m):
            m *= 2
            e -= 1
        while m >= 2**24:
            m /= 2
            e += 1
        m = int(m)
        p = 1
        for k in range(n):
            v = round_to_f32(p, e * k)
            out.append(f32_bits(-v if b < 0 and k % 2 else v))
            p *= m
    _CR_CACHE[key] = out
    return out


def round_to_f32(p, shift):
    """p·2^shift (p a positive int) rounded to float32, nearest even; inf above the largest float."""
    top = p.bit_length() - 1 + shift
    if top > 127:
        return float("inf")
    quantum = max(top, -126) - 23
    s = quantum - shift
    if s <= 0:
        n = p << -s
    else:
        n = p >> s
        rem = p - (n << s)
        half = 1 << (s - 1)
        if rem > half or (rem == half and n & 1):
            n += 1
    value = n * 2.0**quantum
    return value if value <= 3.4028234663852886e38 else float("inf")


def ulp_offsets(bits_list, base_bits, exponents):
    """(index, torch bits − correctly rounded bits) wherever they differ (same sign: the offset is ulps)."""
    table = correctly_rounded_table(base_bits, 1026)
    out = []
    for i, (bits, k) in enumerate(zip(bits_list, exponents)):
        cr = table[k]
        if bits != cr:
            out.append([i, to_signed(bits) - to_signed(cr)])
    return out


def to_signed(bits):
    # float32 bits as a monotone integer line (negative floats below zero)
    return bits if bits < 0x80000000 else -(bits - 0x80000000)


def measure(capability, threads):
    import torch

    torch.set_num_threads(threads)
    shown = torch.__config__.show()
    tables = []
    for d in discounts():
        base_bits = f32_bits(d)
        for C in CHUNKS if threads == 1 else THREADED_CHUNKS:
            pow_vec_t = d ** torch.arange(1, C + 1, dtype=torch.float32)
            idx = torch.arange(C)
            diff = idx[None, :] - idx[:, None]
            mask = diff >= 0
            M = torch.zeros(C, C, dtype=torch.float32)
            M[mask] = d ** diff[mask].to(torch.float32)
            row0 = M[0].tolist()
            Mn = M.numpy()
            import numpy as np

            toeplitz = np.zeros_like(Mn)
            ii, jj = np.nonzero(mask.numpy())
            toeplitz[ii, jj] = np.asarray(row0, dtype=np.float32)[jj - ii]
            bad = np.nonzero((Mn.view(np.uint32) != toeplitz.view(np.uint32)) & mask.numpy())
            pv_bits = pow_vec_t.view(torch.int32).numpy().view(np.uint32).tolist()
            r0_bits = M[0].view(torch.int32).numpy().view(np.uint32).tolist()
            tables.append(
                {
                    "discount": d,
                    "chunk_size": C,
                    "pow_vec_ulps": ulp_offsets(pv_bits, base_bits, range(1, C + 1)),
                    "M_row0_ulps": ulp_offsets(r0_bits, base_bits, range(C)),
                    "M_patches": [[int(i), int(j), "%08x" % f32_bits(float(Mn[i, j]))] for i, j in zip(*bad)],
                    "pow_vec_hash": "%08x" % table_hash(pv_bits),
                    "M_row0_hash": "%08x" % table_hash(r0_bits),
                    "M_hash": "%08x" % table_hash(Mn[mask.numpy()].view(np.uint32)),
                }
            )
    used = [line.strip() for line in shown.splitlines() if "CPU capability" in line]
    return {"capability": capability, "threads": threads, "torch_says": used, "tables": tables}


def samples():
    import random

    sleef = ctypes.CDLL("libsleef.so.3").Sleef_powf1_u10purecfma
    glibc = ctypes.CDLL("libm.so.6").powf
    for fn in (sleef, glibc):
        fn.restype = ctypes.c_float
        fn.argtypes = [ctypes.c_float, ctypes.c_float]
    rng = random.Random(6)
    rows = []
    bases = [rng.random() for _ in range(300)] + [rng.uniform(-4, 4) for _ in range(60)]
    bases += [10 ** rng.uniform(-45, -36) for _ in range(20)] + [0.0, -0.0, 1.0, -1.0, 2.0, 0.99, 1e-40, 3.4e38]
    for b in bases:
        b = struct.unpack("<f", struct.pack("<f", b))[0]
        for k in [0, 1, 2, 3, 4, 5, 30, 39] + [rng.randrange(0, 2048) for _ in range(6)] + [rng.uniform(-50, 50)]:
            k = struct.unpack("<f", struct.pack("<f", k))[0]
            rows.append(["%08x" % f32_bits(b), "%08x" % f32_bits(k), "%08x" % f32_bits(sleef(b, k)), "%08x" % f32_bits(glibc(b, k))])
    return rows


def main():
    if len(sys.argv) == 3:
        json.dump(measure(sys.argv[1], int(sys.argv[2])), sys.stdout)
        return
    import torch

    powf_samples = samples()  # first: it is quick, and fails early
    configs = []
    for capability in CAPABILITIES:
        for threads in (1, 2, 3):
            if capability == "default" and threads > 1:
                continue  # every element is scalar: the split changes nothing
            env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
            out = subprocess.run([sys.executable, __file__, capability, str(threads)], env=env, check=True,
                                 capture_output=True, text=True).stdout
            config = json.loads(out)
            # One array per table, in COLUMNS order: field names once per file keep it under 1 MiB.
            config["tables"] = [[t[name] for name in COLUMNS] for t in config["tables"]]
            configs.append(config)
    ldd = subprocess.run(["ldd", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    sleef = subprocess.run(["dpkg-query", "-W", "libsleef3"], capture_output=True, text=True).stdout.strip()
    meta = {
        "torch": torch.__version__,
        "sleef": sleef,
        "glibc": ldd,
        "cpu_flags": sorted({f for f in open("/proc/cpuinfo").read().split() if f in ("avx2", "fma", "avx512f")}),
        "columns": COLUMNS,
        "encoding": "each table is an array in `columns` order; *_ulps: [index, torch bits - correctly rounded bits] where they differ; M_patches: [row, col, float32 bits] where M[row][col] != M_row0[col-row]; *_hash: sum of bits[i]*0x01000193^(i+1) mod 2^32 over the float32 bits, M_hash over M[mask] in torch's order",
    }
    json.dump({"meta": meta, "configs": configs, "powf_samples": powf_samples}, sys.stdout, separators=(",", ":"))


if __name__ == "__main__":
    main()
