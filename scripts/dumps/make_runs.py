"""Writes run folders at real sizes, as slime's --dump-details lays them out, through slime's own code.

Each step is a train dump `RUN/train_data/<id>.pt` (and, where asked, its rollout dump `RUN/rollout_data/<id>.pt`)
written by gen_lib.run_pipeline (slime 624b824's _post_process_rewards -> ... -> compute_advantages_and_returns ->
save_debug_train_data). A step may carry one of make_variants.py's bug patches. Nothing here is committed
output: the folders are hundreds of MB (docs/dumps.md, "Real runs, not seen before, again").

Setup (once): scripts/dumps/setup_work.sh /path/to/slime-checkout 624b824 /tmp/dumps-work. Run from /tmp:
    PYTHONPATH=dumps-work/shim:dumps-work/stubs:dumps-work/slime:/path/to/scanlab/scripts/dumps \
        /usr/bin/python3 /path/to/scanlab/scripts/dumps/make_runs.py OUT_DIR [RUN …]
It writes OUT_DIR/<run>/… and OUT_DIR/manifest-<run>.json: per step the true settings, the patch (or none),
samples, tokens, the longest response and the file's size.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import time

import gen_lib as G  # noqa: E402  (slime's real pipeline, megatron/ray stubbed)
import make_variants as V  # noqa: E402  (the bug patches)
import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from slime.utils.types import Sample

S = V.S


def real_turns(rng, max_total):
    """A response of a real run: mostly one model turn, log-uniform 16…max_total tokens, some cut at max_total
    (truncated); otherwise 2–6 model turns with tool spans between them."""
    def ln(lo, hi):
        return int(round(np.exp(rng.uniform(np.log(lo), np.log(hi)))))
    if rng.random_sample() < 0.6:
        if rng.random_sample() < 0.06:
            return [("model", max_total)], True
        return [("model", ln(16, max_total))], False
    turns, total = [], 0
    for _ in range(rng.randint(2, 7)):
        m = min(ln(16, max(32, max_total // 3)), max_total - total)
        if m <= 0:
            break
        turns.append(("model", m))
        total += m
        t = min(ln(8, max(16, max_total // 8)), max_total - total)
        if t <= 0 or total > 0.85 * max_total:
            break
        turns.append(("tool", t))
        total += t
    if turns[-1][0] == "tool" and rng.random_sample() < 0.6 and total < max_total - 8:
        turns.append(("model", min(ln(4, 400), max_total - total)))
    return turns, False


def reward_for(rng, kind):
    if kind == "binary":
        return float(rng.random_sample() < 0.45)
    if kind == "signed":
        return float(rng.choice([1.0, 0.0, -1.0, 0.5]))
    return float(np.round(rng.normal(0.2, 0.8), 3))


def build(spec):
    rng = np.random.RandomState(spec["seed"])
    out = []
    n, per = spec["samples"], spec.get("n_per_prompt", 1)
    for k in range(n):
        g = k // per
        turns, truncated = real_turns(rng, spec["max_response"])
        prompt = G.make_prompt_tokens(spec["seed"] * 10007 + g, 48 + (g * 37) % spec.get("prompt_spread", 900))
        out.append(G.make_sample(rng, index=k, group_index=g, prompt_tokens=prompt, turns=turns,
                                 reward=reward_for(rng, spec.get("rewards", "normal")),
                                 source="gsm8k" if g % 2 == 0 else "swe_tool",
                                 finish_last="length" if truncated else "stop",
                                 status_override=Sample.Status.TRUNCATED if truncated else None))
    return out


def _worker(rank, world, port, path, overrides, spec, patch, rollout_path):
    group = G.init_gloo(rank, world, port)
    G.configure_mpu(cp_size=world, cp_rank=rank, cp_group=group, dp_cp_group=group)
    singles = [dist.new_group(ranks=[r]) for r in range(world)]  # collective: every rank makes every group
    V._RUN.clear()
    V._RUN["own_group"] = singles[rank]
    args = G.base_args(save_debug_train_data=path, **overrides)
    samples = build(spec)
    fwd = G.synth_forward(spec["seed"] + 1, samples, with_values=args.use_critic, with_entropy=args.use_rollout_entropy)
    with contextlib.ExitStack() as stack:
        stack.enter_context(V.swapped(V.slime_loss, "compute_advantages_and_returns", V._capture_compute))
        for obj, name, value in V.PATCHES[patch]:
            stack.enter_context(V.swapped(obj, name, value))
        G.run_pipeline(args, samples, fwd, rollout_id=spec["rollout_id"], cp_size=world, cp_rank=rank)
    if rank == 0 and rollout_path:
        G.save_debug_rollout_data(rollout_path, samples, rollout_id=spec["rollout_id"], evaluation=False)
    V._RUN.clear()
    dist.destroy_process_group()


def write_step(out, run, step, settings, spec, cp_size=1, patch=None, rollout=False):
    os.makedirs(f"{out}/{run}/train_data", exist_ok=True)
    path = f"{out}/{run}/train_data/{step}.pt"
    rollout_path = f"{out}/{run}/rollout_data/{step}.pt" if rollout else None
    if rollout:
        os.makedirs(f"{out}/{run}/rollout_data", exist_ok=True)
    overrides = dict(settings)
    overrides.setdefault("use_critic", overrides.get("advantage_estimator") == "ppo")
    overrides.setdefault("global_batch_size", max(1, spec["samples"] // 2))
    overrides.setdefault("max_tokens_per_gpu", 16384)
    spec = dict(spec, rollout_id=step, seed=spec["seed"] + step)
    t0 = time.time()
    port = G.free_port()
    if cp_size == 1:
        _worker(0, 1, port, path, overrides, spec, patch, rollout_path)
    else:
        mp.spawn(_worker, args=(cp_size, port, path, overrides, spec, patch, rollout_path), nprocs=cp_size, join=True)
    full = G.base_args(**overrides)
    d = torch.load(path)
    rl = [int(s["response_lengths"]) for s in d["samples"]]
    rec = {"file": f"{run}/train_data/{step}.pt", "step": step, "settings": {k: getattr(full, k) for k in V.SETTING_KEYS},
           "cp_size": cp_size, "patch": patch, "expect": "fail" if patch and not patch.startswith("fix_") else "pass",
           "samples": len(rl), "tokens": sum(rl), "response_min": min(rl), "response_max": max(rl),
           "bytes": os.path.getsize(path), "seconds": round(time.time() - t0, 1)}
    if rollout_path:
        rec["rollout"] = {"file": f"{run}/rollout_data/{step}.pt", "bytes": os.path.getsize(rollout_path)}
    del d
    print(json.dumps(rec), flush=True)
    return rec


R, RB, PPO = "reinforce_plus_plus", "reinforce_plus_plus_baseline", "ppo"
# run -> list of (step, settings, spec, cp, patch, rollout)
RUNS = {
    "ppo_norm": [(s, dict(advantage_estimator=PPO, gamma=0.995, lambd=0.97, kl_coef=0.015, kl_loss_type="k2",
                          normalize_advantages=True), dict(seed=4100, samples=512, max_response=16384, rewards="signed"),
                  1, None, s == 1) for s in (0, 1, 2)],
    "grpo": [(s, dict(advantage_estimator="grpo", n_samples_per_prompt=8, rollout_batch_size=128, kl_coef=0.005,
                      kl_loss_type="low_var_kl"),
              dict(seed=4200, samples=1024, max_response=4096, n_per_prompt=8, rewards="binary"), 1, None, False)
             for s in (3, 4)],
    "rpp_norm_k1": [(s, dict(advantage_estimator=R, gamma=0.97, kl_coef=0.04, kl_loss_type="k1", normalize_advantages=True),
                     dict(seed=4300, samples=512, max_response=8192), 1, None, False) for s in (0, 1)],
    "rpp_k3": [(s, dict(advantage_estimator=R, gamma=0.999, kl_coef=0.02, kl_loss_type="k3"),
                dict(seed=4400, samples=512, max_response=8192), 1, None, False) for s in (7, 8)],
    "rppb_norm_k2": [(s, dict(advantage_estimator=RB, n_samples_per_prompt=4, rollout_batch_size=128, kl_coef=0.01,
                              kl_loss_type="k2", normalize_advantages=True),
                      dict(seed=4500, samples=512, max_response=8192, n_per_prompt=4, rewards="binary"), 1, None, False)
                     for s in (0, 1)],
    "cispo": [(s, dict(advantage_estimator="cispo", n_samples_per_prompt=8, rollout_batch_size=64, kl_coef=0.0),
               dict(seed=4600, samples=512, max_response=4096, n_per_prompt=8, rewards="binary"), 1, None, False)
              for s in (0, 1)],
    "gspo_norm": [(s, dict(advantage_estimator="gspo", n_samples_per_prompt=4, rollout_batch_size=64, kl_coef=0.02,
                           kl_loss_type="k3", normalize_advantages=True),
                   dict(seed=4650, samples=256, max_response=4096, n_per_prompt=4, rewards="binary"), 1, None, False)
                  for s in (0, 1)],
    "rpp_rolloutlp": [(s, dict(advantage_estimator=R, gamma=0.99, kl_coef=0.03, kl_loss_type="k2", use_rollout_logprobs=True),
                       dict(seed=4700, samples=256, max_response=8192), 1, None, False) for s in (0, 1)],
    "cp2_ppo": [(s, dict(advantage_estimator=PPO, gamma=1.0, lambd=0.98, kl_coef=0.01, kl_loss_type="k1"),
                 dict(seed=4800, samples=256, max_response=8192, rewards="signed"), 2, None, False) for s in (0, 1)],
    "cp2_rpp_norm": [(s, dict(advantage_estimator=R, gamma=0.995, kl_coef=0.02, kl_loss_type="k3", normalize_advantages=True),
                      dict(seed=4850, samples=256, max_response=8192), 2, None, False) for s in (0, 1)],
    # bug runs: the bug appears at a later step of an otherwise correct run
    "bug_rpp_kl_unmasked": [(s, dict(advantage_estimator=R, gamma=0.995, kl_coef=0.03, kl_loss_type="k1"),
                             dict(seed=5100, samples=384, max_response=6144), 1, p, False)
                            for s, p in ((0, None), (1, "rpp_kl_unmasked"))],
    "bug_ppo_reward_last_trainable": [(s, dict(advantage_estimator=PPO, gamma=1.0, lambd=0.95, kl_coef=0.02, kl_loss_type="k2"),
                                       dict(seed=5200, samples=384, max_response=6144, rewards="signed"), 1, p, False)
                                      for s, p in ((0, None), (1, "ppo_reward_last_trainable"))],
    "bug_grpo_kl_applied": [(s, dict(advantage_estimator="grpo", n_samples_per_prompt=8, rollout_batch_size=64, kl_coef=0.02,
                                     kl_loss_type="k3"),
                             dict(seed=5300, samples=512, max_response=4096, n_per_prompt=8, rewards="binary"), 1, p, False)
                            for s, p in ((0, None), (1, "grpo_kl_applied"))],
    "bug_returns_bfloat16": [(s, dict(advantage_estimator=R, gamma=0.99, kl_coef=0.01, kl_loss_type="k2"),
                              dict(seed=5400, samples=256, max_response=8192), 1, p, False)
                             for s, p in ((0, None), (1, "returns_bfloat16"))],
    "bug_whiten_per_cp_rank": [(s, dict(advantage_estimator=PPO, gamma=0.99, lambd=0.95, kl_coef=0.01, kl_loss_type="k1",
                                        normalize_advantages=True),
                                dict(seed=5500, samples=128, max_response=4096, rewards="signed"), 2, p, False)
                               for s, p in ((0, None), (1, "whiten_per_cp_rank"))],
    "ppo_1024x32k": [(0, dict(advantage_estimator=PPO, gamma=0.99, lambd=1.0, kl_coef=0.005, kl_loss_type="k3",
                              normalize_advantages=True, max_tokens_per_gpu=40000),
                      dict(seed=4900, samples=1024, max_response=32768, rewards="signed"), 1, None, False)],
}


if __name__ == "__main__":
    out = sys.argv[1]
    names = sys.argv[2:] or list(RUNS)
    for run in names:
        recs = [write_step(out, run, step, st, sp, cp, patch, roll) for step, st, sp, cp, patch, roll in RUNS[run]]
        with open(f"{out}/manifest-{run}.json", "w") as fh:
            json.dump({"written_by": "scripts/dumps/make_runs.py (slime 624b824, torch " + torch.__version__ + ")",
                       "run": run, "steps": recs}, fh, indent=1)
