"""Writes the test fixtures of Scanlab's dump readers (cases/dumps/) with slime's real code.

Train and rollout dumps go through slime's own path from Sample to torch.save (gen_lib.py, copied
from the shared dumps/ unchanged); the other formats and the hostile files are written here, the
hostile pickles byte by byte (nothing here ever unpickles them).

Setup (once; torch 1.13 from Debian's python3-torch, a checkout of slime at 624b824):
    scripts/dumps/setup_work.sh /path/to/slime-checkout   # makes dumps-work/ in the current dir
Run from the directory holding dumps-work/:
    PYTHONPATH=dumps-work/shim:dumps-work/stubs:dumps-work/slime:scripts/dumps \
        /usr/bin/python3 scripts/dumps/make_fixtures.py OUT_DIR
It writes OUT_DIR/*.pt|npz|safetensors and OUT_DIR/manifest.json: per file, what it is, the
settings it was written with and what a reader must do with it (open and pass, or refuse, and why).
With --big N it writes only OUT_DIR/big_train.pt: N samples of 8192 tokens (the benchmark's).
"""

from __future__ import annotations

import io
import json
import os
import struct
import sys
import zipfile

import gen_lib as G  # noqa: E402  (slime's real pipeline, megatron/ray stubbed)
import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

OUT = sys.argv[1] if len(sys.argv) > 1 else "fixtures-out"
MANIFEST: list[dict] = []


def samples_for(seed: int, turns_list, rewards, n_per_prompt: int, prompt_len=40, rollout=None, **kw):
    rng = np.random.RandomState(seed)
    out = []
    for k, (turns, reward) in enumerate(zip(turns_list, rewards)):
        g = k // n_per_prompt
        prompt = G.make_prompt_tokens(seed * 100 + g, prompt_len + 7 * g)
        out.append(G.make_sample(rng, index=k, group_index=g, prompt_tokens=prompt, turns=turns, reward=reward,
                                 source="gsm8k" if g % 2 == 0 else "swe_tool", **kw))
    return out


def _worker(rank, world, port, name, overrides, spec):
    group = G.init_gloo(rank, world, port)
    G.configure_mpu(cp_size=world, cp_rank=rank, cp_group=group, dp_cp_group=group)
    args = G.base_args(save_debug_train_data=f"{OUT}/{name}.pt", **overrides)
    samples = samples_for(**spec)
    fwd = G.synth_forward(spec["seed"] + 1, samples, with_values=args.use_critic, with_entropy=args.use_rollout_entropy)
    G.run_pipeline(args, samples, fwd, rollout_id=spec["seed"], cp_size=world, cp_rank=rank)
    if rank == 0 and spec.get("rollout"):
        G.save_debug_rollout_data(f"{OUT}/{spec['rollout']}.pt", samples, rollout_id=spec["seed"], evaluation=False)
    dist.destroy_process_group()


def train_dump(name, settings, spec, cp_size=1, note=""):
    """One train dump through slime's code; `settings` are slime's argument names."""
    overrides = dict(settings)
    overrides.setdefault("use_critic", overrides.get("advantage_estimator") == "ppo")
    port = G.free_port()
    if cp_size == 1:
        _worker(0, 1, port, name, overrides, spec)
    else:
        mp.spawn(_worker, args=(cp_size, port, name, overrides, spec), nprocs=cp_size, join=True)
    replay = {k: settings[k] for k in ("advantage_estimator", "gamma", "lambd", "kl_coef", "kl_loss_type", "normalize_advantages", "use_rollout_logprobs", "n_samples_per_prompt", "rollout_batch_size") if k in settings}
    MANIFEST.append({"file": f"{name}.pt", "kind": "train", "settings": replay, "cp_size": cp_size,
                     "expect": "pass", "note": note})
    if spec.get("rollout"):
        MANIFEST.append({"file": f"{spec['rollout']}.pt", "kind": "rollout", "pairs_with": f"{name}.pt", "expect": "rollout"})


def S(model, tool=0, model2=0):
    t = [("model", model)]
    if tool:
        t.append(("tool", tool))
    if model2:
        t.append(("model", model2))
    return t


def write_trains():
    ragged = [S(1), S(37, 20, 9), S(300), S(5, 60, 120), S(2990), S(64), S(129), S(12, 3, 2)]
    rew8 = [1.0, 0.0, -1.0, 0.5, 1.0, 0.25, 0.0, 1.0]
    small = [S(3), S(40, 10, 8), S(17), S(130)]
    rew4 = [1.0, 0.0, 0.3, -0.5]
    train_dump("grpo_kl0", dict(advantage_estimator="grpo", n_samples_per_prompt=2, rollout_batch_size=2), dict(seed=11, turns_list=small, rewards=rew4, n_per_prompt=2))
    train_dump("gspo_norm_kl001_k3", dict(advantage_estimator="gspo", n_samples_per_prompt=2, rollout_batch_size=2, kl_coef=0.01, kl_loss_type="k3", normalize_advantages=True),
               dict(seed=12, turns_list=small, rewards=rew4, n_per_prompt=2))
    train_dump("cispo_kl0", dict(advantage_estimator="cispo", n_samples_per_prompt=2, rollout_batch_size=2), dict(seed=13, turns_list=small, rewards=rew4, n_per_prompt=2))
    train_dump("rpp_norm_g1_kl002_k2", dict(advantage_estimator="reinforce_plus_plus", gamma=1.0, kl_coef=0.02, kl_loss_type="k2", normalize_advantages=True),
               dict(seed=14, turns_list=ragged, rewards=rew8, n_per_prompt=1, rollout="rollout_of_rpp_norm_g1_kl002_k2"),
               note="ragged 1…2990 tokens, multi-turn holes; its rollout dump is beside it")
    train_dump("rpp_rolloutlp_g099_kl002_k3", dict(advantage_estimator="reinforce_plus_plus", gamma=0.99, kl_coef=0.02, kl_loss_type="k3", use_rollout_logprobs=True),
               dict(seed=21, turns_list=small, rewards=rew4, n_per_prompt=1),
               note="--use-rollout-logprobs: the KL comes from the rollout engine's log-probs")
    train_dump("rppb_norm_kl005_k1", dict(advantage_estimator="reinforce_plus_plus_baseline", n_samples_per_prompt=2, rollout_batch_size=2, kl_coef=0.05, kl_loss_type="k1", normalize_advantages=True),
               dict(seed=15, turns_list=small, rewards=rew4, n_per_prompt=2))
    train_dump("rppb_kl003_lowvar", dict(advantage_estimator="reinforce_plus_plus_baseline", n_samples_per_prompt=2, rollout_batch_size=2, kl_coef=0.03, kl_loss_type="low_var_kl"),
               dict(seed=16, turns_list=small, rewards=rew4, n_per_prompt=2))
    train_dump("ppo_g1_l1_kl001_k3", dict(advantage_estimator="ppo", gamma=1.0, lambd=1.0, kl_coef=0.01, kl_loss_type="k3"),
               dict(seed=17, turns_list=small, rewards=rew4, n_per_prompt=1))
    train_dump("ppo_norm_g099_l09_kl0", dict(advantage_estimator="ppo", gamma=0.99, lambd=0.9, normalize_advantages=True),
               dict(seed=18, turns_list=small, rewards=rew4, n_per_prompt=1))
    train_dump("cp2_rpp_norm_g099_kl002_k1", dict(advantage_estimator="reinforce_plus_plus", gamma=0.99, kl_coef=0.02, normalize_advantages=True),
               dict(seed=19, turns_list=[S(33), S(8, 12, 30), S(257), S(6)], rewards=rew4, n_per_prompt=1), cp_size=2,
               note="context parallel 2: the dump holds the restored full-length fields")
    train_dump("cp4_ppo_g1_l095_kl002_k1", dict(advantage_estimator="ppo", gamma=1.0, lambd=0.95, kl_coef=0.02),
               dict(seed=20, turns_list=[S(29), S(8, 12, 30), S(257), S(6)], rewards=rew4, n_per_prompt=1, prompt_len=4), cp_size=4,
               note="context parallel 4, ppo: CP rank 0 adds the reward to the last element of its own slice, "
                    "not always the last response token (CONTEXT_PARALLEL.md); replay with --context-parallel-size 4")


def write_big(n):
    turns = [S(8192)] * n
    train_dump("big_train", dict(advantage_estimator="reinforce_plus_plus", gamma=0.99, kl_coef=0.05),
               dict(seed=99, turns_list=turns, rewards=[1.0 if k % 3 else -1.0 for k in range(n)], n_per_prompt=1, prompt_len=16))


def write_formats():
    base = torch.load(f"{OUT}/grpo_kl0.pt")
    torch.save(base, f"{OUT}/legacy_grpo_kl0.pt", _use_new_zipfile_serialization=False)
    MANIFEST.append({"file": "legacy_grpo_kl0.pt", "kind": "train", "settings": {"advantage_estimator": "grpo", "n_samples_per_prompt": 2, "rollout_batch_size": 2},
                     "expect": "pass", "note": "grpo_kl0.pt re-saved in the legacy (non-zip) format"})
    g = torch.Generator().manual_seed(5)
    x = torch.randn(3, 7, generator=g)
    torch.save(x.to(torch.bfloat16), f"{OUT}/tensor_bf16.pt")
    torch.save({"half": x.to(torch.float16), "double": x.double(), "flag": x > 0, "byte": (x * 10).to(torch.uint8),
                "view": x[1:, 2:5], "transposed": x.t(), "scalar": x[0, 0]}, f"{OUT}/dtypes_views.pt")
    # pickle protocol 4 (FRAME, MEMOIZE, SHORT_BINUNICODE, STACK_GLOBAL), as torch.save(..., pickle_protocol=4) writes it
    torch.save({"rewards": x, "loss_mask": (x > 0).int()}, f"{OUT}/protocol4.pt", pickle_protocol=4)
    MANIFEST.append({"file": "protocol4.pt", "kind": "plain", "expect": "tree",
                     "values": {"rewards": x.tolist(), "loss_mask": (x > 0).int().tolist()}})
    MANIFEST.append({"file": "tensor_bf16.pt", "kind": "plain", "expect": "tree", "values": x.to(torch.bfloat16).float().tolist()})
    MANIFEST.append({"file": "dtypes_views.pt", "kind": "plain", "expect": "tree",
                     "values": {"half": x.half().float().tolist(), "double": x.double().tolist(), "flag": (x > 0).int().tolist(),
                                "byte": (x * 10).to(torch.uint8).tolist(), "view": x[1:, 2:5].tolist(), "transposed": x.t().tolist(),
                                "scalar": float(x[0, 0])}})
    arrays = {"rewards": x.numpy().astype(np.float32), "values": x.double().numpy(), "lengths": np.array([7, 5, 3], dtype=np.int32),
              "loss_mask": (x.numpy() > -1).astype(np.int64)}
    np.savez(f"{OUT}/batch_stored.npz", **arrays)
    np.savez_compressed(f"{OUT}/batch_deflated.npz", **arrays)
    lists = {k: v.tolist() for k, v in arrays.items()}
    for f in ("batch_stored.npz", "batch_deflated.npz"):
        MANIFEST.append({"file": f, "kind": "plain", "expect": "tree", "values": lists})
    write_safetensors(f"{OUT}/batch.safetensors", {"rewards": ("F32", x.numpy().astype("<f4")), "kl": ("BF16", x.to(torch.bfloat16)),
                                                   "loss_mask": ("I64", (x.numpy() > -1).astype("<i8"))})
    MANIFEST.append({"file": "batch.safetensors", "kind": "plain", "expect": "tree",
                     "values": {"rewards": x.tolist(), "kl": x.to(torch.bfloat16).float().tolist(), "loss_mask": (x > -1).int().tolist()}})


def write_safetensors(path, tensors):
    """The format by hand (no safetensors package here): u64 LE header length, JSON header, raw bytes."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, (dtype, t) in tensors.items():
        raw = t.view(torch.int16).numpy().astype("<i2").tobytes() if dtype == "BF16" else t.tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(raw)]}
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as fh:
        fh.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


# --- hostile files: the pickle bytes are written, never unpickled -------------------------------
def pk_str(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def pk_int(n):
    return b"J" + struct.pack("<i", n)


def tensor_pickle(key="0", numel=4, size=(4,), stride=(1,), offset=0, cls="FloatStorage"):
    pid = b"(" + pk_str("storage") + b"ctorch\n" + cls.encode() + b"\n" + pk_str(key) + pk_str("cpu") + pk_int(numel) + b"tQ"
    tup = lambda xs: b"(" + b"".join(pk_int(v) for v in xs) + b"t"  # noqa: E731
    return (b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n(" + pid + pk_int(offset) + tup(size) + tup(stride) +
            b"\x89ccollections\nOrderedDict\n)RtR.")


def torch_zip(path, prefix, pickle_bytes, records):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{prefix}/data.pkl", pickle_bytes)
        for key, raw in records.items():
            z.writestr(f"{prefix}/data/{key}", raw)
        z.writestr(f"{prefix}/version", "3\n")


def hostile(name, data_or_writer, reason):
    path = f"{OUT}/{name}"
    if callable(data_or_writer):
        data_or_writer(path)
    else:
        with open(path, "wb") as fh:
            fh.write(data_or_writer)
    MANIFEST.append({"file": name, "kind": "hostile", "expect": "refuse", "reason": reason})


def write_hostile():
    four = struct.pack("<4f", 1, 2, 3, 4)
    good = open(f"{OUT}/grpo_kl0.pt", "rb").read()
    hostile("truncated.pt", good[: len(good) // 2], "end-of-central-directory")
    hostile("missing_storage.pt", lambda p: torch_zip(p, "missing_storage", tensor_pickle(key="1"), {"0": four}), "is missing")
    hostile("size_mismatch.pt", lambda p: torch_zip(p, "size_mismatch", tensor_pickle(numel=4), {"0": four[:12]}), "holds 12 bytes")
    hostile("view_outside.pt", lambda p: torch_zip(p, "view_outside", tensor_pickle(size=(3,), stride=(2,)), {"0": four}), "reaches element 4")
    hostile("claim_2gb.pt", lambda p: torch_zip(p, "claim_2gb", tensor_pickle(numel=2**29), {"0": four}), "claims 536870912")
    hostile("huge_shape.pt", lambda p: torch_zip(p, "huge_shape", tensor_pickle(numel=4, size=(2**20, 2**20), stride=(0, 0)), {"0": four}), "above the limit")
    evil = lambda mod, fn, arg: b"\x80\x02c" + mod + b"\n" + fn + b"\n" + pk_str(arg) + b"\x85R."  # noqa: E731
    hostile("global_builtins_eval.pt", lambda p: torch_zip(p, "g", evil(b"builtins", b"eval", "1+1"), {}), 'GLOBAL "builtins.eval"')
    hostile("global_subprocess.pt", lambda p: torch_zip(p, "g", evil(b"subprocess", b"check_output", "id"), {}), 'GLOBAL "subprocess.check_output"')
    hostile("global_torch_load.pt", lambda p: torch_zip(p, "g", evil(b"torch", b"load", "x"), {}), 'GLOBAL "torch.load"')
    hostile("reduce_storage_class.pt", lambda p: torch_zip(p, "r", b"\x80\x02ctorch\nFloatStorage\n)R.", {}), "never called")
    hostile("build_opcode.pt", lambda p: torch_zip(p, "b", b"\x80\x02}}b.", {}), "BUILD")
    hostile("deep_nesting.pt", lambda p: torch_zip(p, "d", b"\x80\x02" + b"(" * 5000 + b".", {}), "nested deeper")
    hostile("memo_before_write.pt", lambda p: torch_zip(p, "m", b"\x80\x02h\x07.", {}), "read before it is written")
    # a list holding the previous one twice, 40 levels: 2^40 values if walked naively
    body = b"\x80\x02]r\x00\x00\x00\x000"
    for i in range(40):
        body += b"(j" + struct.pack("<I", i) + b"j" + struct.pack("<I", i) + b"lr" + struct.pack("<I", i + 1) + b"0"
    body += b"j" + struct.pack("<I", 40)
    hostile("billion_laughs.pt", lambda p: torch_zip(p, "l", body + b".", {}), "expands to more than")
    hostile("not_a_dump.bin", b"\x7fELF\x02\x01\x01" + b"\x00" * 64, "not a torch")
    overrun = json.dumps({"a": {"dtype": "F32", "shape": [1000], "data_offsets": [0, 4000]}}).encode()
    hostile("safetensors_overrun.safetensors", struct.pack("<Q", len(overrun)) + overrun + b"\x00" * 16, "run past the end")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        npy = io.BytesIO()
        np.save(npy, np.zeros(1000, dtype=np.float32))
        z.writestr("a.npy", npy.getvalue())
    raw = bytearray(bomb.getvalue())
    # The central directory's uncompressed size now understates what the stream inflates to.
    cd = raw.rfind(b"PK\x01\x02")
    struct.pack_into("<I", raw, cd + 24, 100)
    hostile("npz_inflates_past_size.npz", bytes(raw), "inflates to more than")


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    if "--big" in sys.argv:
        write_big(int(sys.argv[sys.argv.index("--big") + 1]))
        sys.exit(0)
    write_trains()
    write_formats()
    write_hostile()
    with open(f"{OUT}/manifest.json", "w") as fh:
        json.dump({"written_by": "scripts/dumps/make_fixtures.py (slime 624b824, torch " + torch.__version__ + ")", "files": MANIFEST}, fh, indent=1)
