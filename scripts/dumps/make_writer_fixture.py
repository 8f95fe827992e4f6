"""The torch.save file that src/testing/torchZipWriter.test.ts rebuilds byte for byte.

Run with torch 1.13 (Debian's python3-torch):
    /usr/bin/python3 scripts/dumps/make_writer_fixture.py cases/dumps/writer/writer_torch113.pt
The value tree is mirrored in the test; CPython memoizes by identity, so every repeated string here
is the same object (the writer memoizes strings by value).
"""
import sys

import torch

flat = torch.arange(12, dtype=torch.float32) / 4  # whitened advantages: one flat storage
padded = torch.arange(10, dtype=torch.float32).reshape(2, 5) - 3  # returns: rows of [B, max_R]
sums = torch.tensor([2.0, 4.0])  # rollout_mask_sums: 0-d views of one [B] storage
names = [f"n{i}" for i in range(300)]  # past 256 memo entries: LONG_BINPUT, then LONG_BINGET
root = {
    "format_version": 2,
    "rollout_id": 7,
    "rank": 0,
    "samples": [
        {
            "tokens": torch.arange(6, dtype=torch.int64) * 1000,
            "response_lengths": 3,
            "rewards": 1.0,
            "truncated": 0,
            "loss_masks": torch.tensor([1, 0, 1], dtype=torch.int32),
            "rollout_mask_sums": sums[0],
            "source_names": "math",
            "advantages": flat[0:3],
            "returns": padded[0, :3],
            "flags": torch.tensor([True, False, True]),
        },
        {
            "tokens": torch.arange(8, dtype=torch.int64) * -7,
            "response_lengths": 5,
            "rewards": -0.5,
            "truncated": 1,
            "loss_masks": torch.tensor([1, 1, 1, 1, 0], dtype=torch.int32),
            "rollout_mask_sums": sums[1],
            "source_names": "math",
            "advantages": flat[3:8],
            "returns": padded[1, :5],
            "flags": torch.tensor([False] * 5),
        },
    ],
    "raw_reward": [1.0, -0.5],
    "matrix": padded,
    "column": padded[:, 1],
    "extra": [torch.full((2,), float(i)) for i in range(4)],
    "ints": [0, 255, 256, 65535, 65536, -1, -(2**31), 2**31, 2**63, -(2**70)],
    "floats": [0.1, -0.0, 1e300, float("inf"), 2.0],
    "flags": [None, True, False],
    "names": names,
    "names_again": [names[299], names[0]],
    "long": list(range(1500)),
    "one": [{"x": 0.25}],
}
torch.save(root, sys.argv[1])
