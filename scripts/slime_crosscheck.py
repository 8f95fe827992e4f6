#!/usr/bin/python3
"""Replay Scanlab's exported case files through slime's real functions and compare bit for bit.

    git -C <slime mirror> archive HEAD slime | tar -x -C SLIME_DIR
    /usr/bin/python3 scripts/slime_crosscheck.py SLIME_DIR CASE.json ...

For every discounted / gae / reinforce_pp case it runs slime/utils/ppo_utils.py's
chunked_discounted_returns, chunked_gae or get_reinforce_plus_plus_returns (unmodified source,
torch CPU, one thread; megatron.core.mpu stubbed to context-parallel size 1, torch.compile made
the identity: torch 1.13 has none) on the case's float32 inputs and counts the elements of
chunked_float32 that differ. It also rebuilds torch's two power tables, exactly as slime's
function does, and compares them with the file's float32_pow_tables (M in full: patches too).
"""

import json
import struct
import sys
import types

import torch

torch.set_num_threads(1)
if not hasattr(torch, "compile"):
    torch.compile = lambda *args, **kwargs: (lambda f: f) if not args or not callable(args[0]) else args[0]
megatron = types.ModuleType("megatron")
core = types.ModuleType("megatron.core")
mpu = types.ModuleType("megatron.core.mpu")
mpu.get_context_parallel_world_size = lambda: 1
core.mpu = mpu
megatron.core = core
sys.modules.update({"megatron": megatron, "megatron.core": core, "megatron.core.mpu": mpu})

sys.path.insert(0, sys.argv[1])
from slime.utils import ppo_utils  # noqa: E402


def bits(values):
    return [struct.unpack("<I", struct.pack("<f", v))[0] for v in values]


def flat(x):
    if isinstance(x, list) and x and isinstance(x[0], list):
        return [v for row in x for v in row]
    return list(x)


def torch_tables(discount, C):
    idx = torch.arange(C)
    diff = idx[None, :] - idx[:, None]
    mask = diff >= 0
    M = torch.zeros(C, C, dtype=torch.float32)
    if discount == 0.0:
        M[mask & (diff == 0)] = 1.0
        pow_vec = torch.zeros(C, dtype=torch.float32)
    else:
        M[mask] = discount ** diff[mask].to(torch.float32)
        pow_vec = discount ** torch.arange(1, C + 1, dtype=torch.float32)
    return M, pow_vec


def file_M(tables, C):
    row0 = torch.tensor(tables["M_row0"], dtype=torch.float32)
    idx = torch.arange(C)
    diff = idx[None, :] - idx[:, None]
    M = torch.where(diff >= 0, row0[diff.clamp(min=0)], torch.zeros((), dtype=torch.float32))
    for i, j, v in tables.get("M_patches", []):
        M[i, j] = v
    return M


def run(c):
    kind = c["kind"]
    p = c["params"]
    if kind == "discounted":
        B, T = c["shape"]
        r = torch.tensor(c["inputs"]["rewards"], dtype=torch.float32).reshape(B, T)
        out = {"returns": ppo_utils.chunked_discounted_returns(r, p["discount"], p["chunk_size"]).flatten().tolist()}
        return out, p["discount"], p["chunk_size"]
    if kind == "gae":
        B, T = c["shape"]
        r = torch.tensor(c["inputs"]["rewards"], dtype=torch.float32).reshape(B, T)
        v = torch.tensor(c["inputs"]["values"], dtype=torch.float32).reshape(B, T)
        adv, ret = ppo_utils.chunked_gae(r, v, p["gamma"], p["lambd"], p["chunk_size"])
        return {"advantages": adv.flatten().tolist(), "returns": ret.flatten().tolist()}, p["gamma"] * p["lambd"], p["chunk_size"]
    if kind == "reinforce_pp":
        rewards = torch.tensor(c["inputs"]["rewards"], dtype=torch.float32)
        kl = [torch.tensor(k, dtype=torch.float32) for k in c["inputs"]["kl"]]
        masks = [torch.tensor(m, dtype=torch.int64) for m in c["inputs"]["loss_masks"]]
        L = [len(k) for k in c["inputs"]["kl"]]
        returns = ppo_utils.get_reinforce_plus_plus_returns(rewards, kl, masks, L, L, p["kl_coef"], p["gamma"])
        return {"returns": [v for r in returns for v in r.tolist()]}, p["gamma"], 128
    return None


def main():
    totals = {"cases": 0, "elements": 0, "differ": 0, "cases_differ": 0, "tables": 0, "table_entries": 0, "table_differ": 0}
    for path in sys.argv[2:]:
        for c in json.load(open(path))["cases"]:
            if c.get("expect_error"):
                continue
            result = run(c)
            if result is None:
                continue
            outputs, discount, C = result
            differ = n = 0
            for name, values in outputs.items():
                ours = bits(flat(c["chunked_float32"][name]))
                theirs = bits(values)
                n += len(ours)
                differ += sum(a != b for a, b in zip(ours, theirs)) + abs(len(ours) - len(theirs))
            tables = c["float32_pow_tables"]
            recorded = c["params"]["chunk_size"]
            if recorded != C:
                print(f"{path.split('/')[-1]} {c['name']}: records chunk_size {recorded}, slime scans with {C}")
                totals["chunk_size_wrong"] = totals.get("chunk_size_wrong", 0) + 1
            # The file's tables against torch's for the chunk size the file records.
            M, pow_vec = torch_tables(discount, recorded)
            fM = file_M(tables, recorded)
            tdiff = int((fM.view(torch.int32) != M.view(torch.int32)).sum())
            tdiff += sum(a != b for a, b in zip(bits(tables["pow_vec"]), bits(pow_vec.tolist())))
            totals["cases"] += 1
            totals["elements"] += n
            totals["differ"] += differ
            totals["cases_differ"] += differ > 0
            totals["tables"] += 1
            totals["table_entries"] += recorded * recorded + recorded
            totals["table_differ"] += tdiff
            flag = "" if differ == 0 and tdiff == 0 else "   <-- DIFFERS"
            print(f"{path.split('/')[-1]} {c['name']}: C={C}, {differ}/{n} outputs differ, {tdiff} table entries differ{flag}")
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
