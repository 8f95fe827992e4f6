"""Writes cases/dumps/variants/: train dumps that carry a known bug, each beside its correct twin.

Both files of a pair go through slime's real pipeline (gen_lib.run_pipeline: _post_process_rewards ->
... -> compute_advantages_and_returns -> save_debug_train_data) from the same samples and the same
synthetic forward outputs. The only difference is a patch applied at run time around the few lines a
bug is about (the patches below are written here; slime's source is never edited or copied). For two
bugs slime 624b824 itself is the buggy side (uneven groups, float32 whitening): there the bug dump is
unpatched slime and the twin carries the fix.

Setup (once; torch 1.13 from Debian's python3-torch, a checkout of slime at 624b824):
    scripts/dumps/setup_work.sh /path/to/slime-checkout   # makes dumps-work/ in the current dir
Run from the directory holding dumps-work/:
    PYTHONPATH=dumps-work/shim:dumps-work/stubs:dumps-work/slime:scripts/dumps \
        /usr/bin/python3 scripts/dumps/make_variants.py cases/dumps/variants
It writes OUT_DIR/<id>.pt, OUT_DIR/<id>__twin.pt and OUT_DIR/manifest.json (per file: the variant id or
null, its twin, slime's settings, CP size, pass/fail, what the bug changes, its source thread, and for
a bug dump the samples and fields that differ from the twin, found by comparing the two files).

Other scripts import this module (PAIRS is data; write_pairs(out, pairs) writes any list of them).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys

import gen_lib as G  # noqa: E402  (slime's real pipeline, megatron/ray stubbed)
import make_fixtures as F  # noqa: E402  (samples_for, S)
import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from megatron.core import mpu  # the stub gen_lib installed

from slime.backends.megatron_utils import loss as slime_loss
from slime.utils import ppo_utils

S = F.S
SETTING_KEYS = ("advantage_estimator", "gamma", "lambd", "kl_coef", "kl_loss_type", "normalize_advantages",
                "use_rollout_logprobs", "n_samples_per_prompt", "rollout_batch_size", "rewards_normalization",
                "grpo_std_normalization")

# What the patches see of the run in progress (args, rollout_data, the KL and masks of the REINFORCE++ call).
_RUN: dict = {}

# The unpatched slime functions, kept before anything is swapped.
ORIG_SCAN = ppo_utils.chunked_discounted_returns
ORIG_RPP_RETURNS = slime_loss.get_reinforce_plus_plus_returns
ORIG_GAE_BATCH = slime_loss.get_advantages_and_returns_batch
ORIG_GRPO_RETURNS = slime_loss.get_grpo_returns
ORIG_WHITEN = slime_loss.distributed_masked_whiten
ORIG_COMPUTE = slime_loss.compute_advantages_and_returns


@contextlib.contextmanager
def swapped(obj, name, value):
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def _capture_compute(args, rollout_data):
    _RUN["args"], _RUN["rollout_data"] = args, rollout_data
    return ORIG_COMPUTE(args, rollout_data)


def _rpp_with_scan(scan):
    """slime's get_reinforce_plus_plus_returns, with `scan` in place of chunked_discounted_returns for
    this one call; the KL, masks and kl_coef of the call are left in _RUN for the scan to read."""

    def rpp_returns(*, rewards, kl, loss_masks, response_lengths, total_lengths, kl_coef, gamma):
        assert mpu.get_context_parallel_world_size() == 1, "these REINFORCE++ patches are written for CP 1"
        _RUN.update(kl=kl, loss_masks=loss_masks, kl_coef=kl_coef)
        with swapped(ppo_utils, "chunked_discounted_returns", scan):
            return ORIG_RPP_RETURNS(rewards=rewards, kl=kl, loss_masks=loss_masks, response_lengths=response_lengths,
                                    total_lengths=total_lengths, kl_coef=kl_coef, gamma=gamma)

    return rpp_returns


# --- 1. slime #1370 / PR #1372: REINFORCE++ KL penalty not gated by the loss mask --------------------------
def _scan_kl_unmasked(padded_rewards, discount, chunk_size=128):
    # slime builds -kl_coef * (kl * mask); put back the -kl_coef * kl that the mask removed on tool tokens.
    for i, (kl, mask) in enumerate(zip(_RUN["kl"], _RUN["loss_masks"])):
        hidden = (1 - mask).to(kl.dtype)
        padded_rewards[i, : kl.numel()] += -_RUN["kl_coef"] * kl * hidden
    return ORIG_SCAN(padded_rewards, discount, chunk_size)


# --- 5. verl PR #6376: reward-to-go restarts at every mask-0 token ------------------------------------------
def _scan_restart_after_mask(padded_rewards, discount, chunk_size=128):
    # The old verl loop zeroed the running return after each response_mask == 0 token, so the return at t only
    # reaches t+1 when t+1 is trainable. Run slime's scan on each piece between such cuts.
    out = padded_rewards.new_zeros(padded_rewards.shape)
    for i, mask in enumerate(_RUN["loss_masks"]):
        n = mask.numel()
        cuts = [0] + [t for t in range(1, n) if int(mask[t]) == 0] + [n]
        for a, b in zip(cuts[:-1], cuts[1:]):
            if b > a:
                out[i, a:b] = ORIG_SCAN(padded_rewards[i : i + 1, a:b].contiguous(), discount, chunk_size)[0]
    return out


# --- 9. a chunked scan whose carry into a chunk is mis-powered or dropped -----------------------------------
def _scan_bad_carry(mode):
    def scan(rewards, discount, chunk_size=128):
        # slime's chunks run backwards from the end of the padded [B, T] batch: [T-128, T), [T-256, T-128), ...
        # Each one is scanned alone with slime's own function (one chunk: nothing carried inside), then the
        # value carried in from the later chunk is added the wrong way: gamma^k instead of gamma^(k+1),
        # k = distance to the chunk's last token, or not at all.
        B, T = rewards.shape
        out = rewards.new_zeros(B, T)
        carry = rewards.new_zeros(B)
        end = T
        while end > 0:
            start = max(0, end - chunk_size)
            part = ORIG_SCAN(rewards[:, start:end].contiguous(), discount, chunk_size)
            k = torch.arange(end - start - 1, -1, -1, dtype=rewards.dtype)
            if mode == "mispowered":
                part = part + carry[:, None] * discount**k
            elif mode == "right":  # only for the self-check below
                part = part + carry[:, None] * discount ** (k + 1)
            out[:, start:end] = part
            carry = part[:, 0]
            end = start
        return out

    return scan


# --- 10. REINFORCE++ returns scanned in bfloat16 -----------------------------------------------------------
def _scan_bf16(padded_rewards, discount, chunk_size=128):
    return ORIG_SCAN(padded_rewards.to(torch.bfloat16), discount, chunk_size).to(torch.float32)


# --- 4. slime PR #2114: PPO scaled the KL tensor in place --------------------------------------------------
def _gae_kl_inplace(total_lengths, response_lengths, values_list, rewards_list, gamma, lambd, chunked=True):
    # Before #2114 the token-level rewards were built with `k *= kl_coef; k[-1] += reward` on the very tensors
    # held in rollout_data["kl"]: make those tensors the token rewards and hand them on.
    kl = _RUN["rollout_data"]["kl"]
    for k, r in zip(kl, rewards_list):
        k.copy_(r)
    return ORIG_GAE_BATCH(total_lengths, response_lengths, values_list, kl, gamma, lambd, chunked)


# --- 6. miles PR #1827's convention: PPO's reward on the last trainable token ------------------------------
def _gae_reward_last_trainable(total_lengths, response_lengths, values_list, rewards_list, gamma, lambd, chunked=True):
    assert mpu.get_context_parallel_world_size() == 1
    rd, args = _RUN["rollout_data"], _RUN["args"]
    moved = []
    for r, k, mask, reward in zip(rewards_list, rd["kl"], rd["loss_masks"], rd["rewards"]):
        last = int(mask.nonzero(as_tuple=True)[0][-1])
        if last != r.numel() - 1:
            r = r.clone()
            r[-1] = k[-1] * -args.kl_coef  # the last token keeps only its KL term
            r[last] += reward
        moved.append(r)
    return ORIG_GAE_BATCH(total_lengths, response_lengths, values_list, moved, gamma, lambd, chunked)


# --- 7. slime #397: GRPO with the KL penalty applied to every token ----------------------------------------
def _grpo_kl_applied(rewards, kl):
    beta = _RUN["args"].kl_coef
    return [r - beta * k for r, k in zip(ORIG_GRPO_RETURNS(rewards, kl), kl)]


# --- 2. slime PR #2235: whitening statistics reduced over the CP-excluding DP group ------------------------
def _whiten_cp_excluding(values, mask, process_group=None, shift_mean=True, epsilon=1e-8):
    # With DP 1 the data-parallel group without context parallelism is this rank alone.
    return ORIG_WHITEN(values, mask, process_group=_RUN["own_group"], shift_mean=shift_mean, epsilon=epsilon)


# --- 8 (twin). NeMo-RL PR #4158's lesson: whitening statistics in float64 ----------------------------------
def _whiten_float64(values, mask, process_group=None, shift_mean=True, epsilon=1e-8):
    v, m = values.double(), mask.double()
    stats = torch.stack([(v * m).sum(), (v * v * m).sum(), m.sum()])
    dist.all_reduce(stats, group=process_group)
    total, total_sq, count = stats
    mean = total / count
    var = total_sq / count - mean * mean
    if count.item() >= 2:
        var = var * count / (count - 1)
    out = (v - mean) * torch.rsqrt(var + epsilon)
    if not shift_mean:
        out = out + mean
    return out.to(values.dtype)


# --- 3 (twin). slime #1414 / #2230: each prompt's group normalised on its own ------------------------------
def _post_process_rewards_per_group(self, samples):
    args = self.args
    raw = [s.get_reward_value(args) for s in samples]
    if not (args.advantage_estimator in ["grpo", "gspo", "cispo", "reinforce_plus_plus_baseline"]
            and args.rewards_normalization):
        return raw, raw
    values = torch.tensor(raw, dtype=torch.float)
    out = torch.empty_like(values)
    start = 0
    while start < len(samples):  # a group: consecutive samples with one group_index
        end = start
        while end < len(samples) and samples[end].group_index == samples[start].group_index:
            end += 1
        g = values[start:end] - values[start:end].mean()
        if args.advantage_estimator in ["grpo", "gspo", "cispo"] and args.grpo_std_normalization:
            g = g / (g.std() + 1e-6) if end - start > 1 else torch.zeros_like(g)
        out[start:end] = g
        start = end
    return raw, out.tolist()


PATCHES = {
    None: [],
    "rpp_kl_unmasked": [(slime_loss, "get_reinforce_plus_plus_returns", _rpp_with_scan(_scan_kl_unmasked))],
    "rpp_restart_after_mask": [(slime_loss, "get_reinforce_plus_plus_returns", _rpp_with_scan(_scan_restart_after_mask))],
    "returns_bfloat16": [(slime_loss, "get_reinforce_plus_plus_returns", _rpp_with_scan(_scan_bf16))],
    "chunk_carry_mispowered": [(ppo_utils, "chunked_discounted_returns", _scan_bad_carry("mispowered"))],
    "chunk_carry_dropped": [(ppo_utils, "chunked_discounted_returns", _scan_bad_carry("dropped"))],
    "ppo_kl_inplace": [(slime_loss, "get_advantages_and_returns_batch", _gae_kl_inplace)],
    "ppo_reward_last_trainable": [(slime_loss, "get_advantages_and_returns_batch", _gae_reward_last_trainable)],
    "grpo_kl_applied": [(slime_loss, "get_grpo_returns", _grpo_kl_applied)],
    "whiten_per_cp_rank": [(slime_loss, "distributed_masked_whiten", _whiten_cp_excluding)],
    "fix_whiten_float64": [(slime_loss, "distributed_masked_whiten", _whiten_float64)],
    "fix_groups_per_prompt": [(G.FakeRolloutManager, "_post_process_rewards", _post_process_rewards_per_group)],
}


# ---------------------------------------------------------------------------------------------------------
def build_samples(spec):
    """F.samples_for for equal groups; with group_sizes, groups of those sizes (one prompt each)."""
    sizes = spec.get("group_sizes")
    if sizes is None:
        return F.samples_for(spec["seed"], spec["turns_list"], spec["rewards"], spec.get("n_per_prompt", 1),
                             prompt_len=spec.get("prompt_len", 40))
    rng = np.random.RandomState(spec["seed"])
    out, k = [], 0
    for g, n in enumerate(sizes):
        prompt = G.make_prompt_tokens(spec["seed"] * 100 + g, spec.get("prompt_len", 40) + 7 * g)
        for _ in range(n):
            out.append(G.make_sample(rng, index=k, group_index=g, prompt_tokens=prompt, turns=spec["turns_list"][k],
                                     reward=spec["rewards"][k], source="gsm8k" if g % 2 == 0 else "swe_tool"))
            k += 1
    assert k == len(spec["turns_list"]) == len(spec["rewards"])
    return out


def _worker(rank, world, port, path, overrides, spec, patch):
    group = G.init_gloo(rank, world, port)
    G.configure_mpu(cp_size=world, cp_rank=rank, cp_group=group, dp_cp_group=group)
    singles = [dist.new_group(ranks=[r]) for r in range(world)]  # collective: every rank makes every group
    _RUN.clear()
    _RUN["own_group"] = singles[rank]
    args = G.base_args(save_debug_train_data=path, **overrides)
    samples = build_samples(spec)
    fwd = G.synth_forward(spec["seed"] + 1, samples, with_values=args.use_critic, with_entropy=args.use_rollout_entropy)
    with contextlib.ExitStack() as stack:
        stack.enter_context(swapped(slime_loss, "compute_advantages_and_returns", _capture_compute))
        for obj, name, value in PATCHES[patch]:
            stack.enter_context(swapped(obj, name, value))
        G.run_pipeline(args, samples, fwd, rollout_id=spec["seed"], cp_size=world, cp_rank=rank)
    _RUN.clear()
    dist.destroy_process_group()


def write_dump(path, settings, spec, cp_size=1, patch=None):
    overrides = dict(settings)
    overrides.setdefault("use_critic", overrides.get("advantage_estimator") == "ppo")
    port = G.free_port()
    if cp_size == 1:
        _worker(0, 1, port, path, overrides, spec, patch)
    else:
        mp.spawn(_worker, args=(cp_size, port, path, overrides, spec, patch), nprocs=cp_size, join=True)
    full = G.base_args(**overrides)
    return {k: getattr(full, k) for k in SETTING_KEYS}


def _same(a, b):
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.dtype == b.dtype and a.shape == b.shape and bool(torch.equal(a, b))
    return a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)


def differences(bug_path, twin_path):
    bug, twin = torch.load(bug_path), torch.load(twin_path)
    assert len(bug["samples"]) == len(twin["samples"])
    per_sample = {}
    for i, (a, b) in enumerate(zip(bug["samples"], twin["samples"])):
        keys = sorted(set(a) | set(b))
        fields = [k for k in keys if k not in a or k not in b or not _same(a[k], b[k])]
        if fields:
            per_sample[i] = fields
    top = [k for k in ("raw_reward",) if bug.get(k) != twin.get(k)]
    return {
        "changed_samples": sorted(per_sample),
        "changed_fields": sorted({f for fs in per_sample.values() for f in fs} | set(top)),
        "changed_by_sample": {str(i): fs for i, fs in per_sample.items()},
    }


def write_pairs(out, pairs, written_by):
    os.makedirs(out, exist_ok=True)
    files = []
    for p in pairs:
        bug_file, twin_file = f"{p['file']}.pt", f"{p['file']}__twin.pt"
        cp = p.get("cp_size", 1)
        settings = write_dump(f"{out}/{bug_file}", p["settings"], p["spec"], cp, p.get("bug_patch"))
        write_dump(f"{out}/{twin_file}", p["settings"], p["spec"], cp, p.get("twin_patch"))
        diff = differences(f"{out}/{bug_file}", f"{out}/{twin_file}")
        n = len(p["spec"]["turns_list"])
        common = {"settings": settings, "cp_size": cp, "samples": n, "source": p["source"]}
        files.append({"file": bug_file, "variant": p["variant"], "twin": twin_file, **common, "expect": "fail",
                      "what": p["what"], "written_with": p.get("bug_patch") or "unpatched slime 624b824", **diff})
        files.append({"file": twin_file, "variant": None, "twin": bug_file, **common, "expect": "pass",
                      "what": f"the correct twin of {bug_file}: same samples and forward outputs"
                              + (f", written with the fix ({p['twin_patch']})" if p.get("twin_patch") else
                                 ", unpatched slime 624b824"),
                      "written_with": p.get("twin_patch") or "unpatched slime 624b824"})
        print(f"{bug_file}: changed samples {diff['changed_samples']} fields {diff['changed_fields']}", flush=True)
    with open(f"{out}/manifest.json", "w") as fh:
        json.dump({"written_by": written_by, "files": files}, fh, indent=1)
    return files


def self_check():
    """The carry wrapper with the right power must reproduce slime's scan (so only the bug differs)."""
    g = torch.Generator().manual_seed(3)
    x = torch.randn(3, 700, generator=g)
    for d in (0.9, 0.99, 1.0):
        a, b = ORIG_SCAN(x, d), _scan_bad_carry("right")(x, d)
        assert torch.allclose(a, b, rtol=1e-5, atol=1e-5), (d, (a - b).abs().max())


R = "reinforce_plus_plus"
PAIRS = [
    dict(file="rpp_kl_unmasked", variant="rpp_kl_unmasked", bug_patch="rpp_kl_unmasked", source="slime PR #1372 / issue #1370",
         settings=dict(advantage_estimator=R, gamma=0.99, kl_coef=0.05, kl_loss_type="k1"),
         spec=dict(seed=101, turns_list=[S(40, 30, 25), S(120), S(15, 80, 60), S(200, 40, 10), S(64), S(9, 12, 3)],
                   rewards=[1.0, 0.0, -1.0, 0.5, 1.0, 0.25]),
         what="the KL penalty of tool/observation (mask-0) tokens enters the REINFORCE++ reward-to-go, so returns "
              "(= advantages) differ on and before each tool span of multi-turn samples; kl itself is unchanged"),
    dict(file="whiten_per_cp_rank", variant="whiten_per_cp_rank", bug_patch="whiten_per_cp_rank", cp_size=2,
         source="slime PR #2235",
         settings=dict(advantage_estimator="ppo", gamma=0.995, lambd=0.95, kl_coef=0.01, kl_loss_type="k2",
                       normalize_advantages=True),
         spec=dict(seed=102, turns_list=[S(37), S(8, 12, 30), S(257), S(90, 20, 40), S(6)], rewards=[1.0, 0.0, 0.3, -0.5, 1.0]),
         what="--normalize-advantages under CP 2 whitens each CP rank's zigzag slice with that rank's own mean and "
              "variance, so stored advantages are affine-transformed differently in the two halves of every "
              "sequence; returns and kl unchanged"),
    dict(file="uneven_groups_batch_norm_grpo", variant="uneven_groups_batch_norm", twin_patch="fix_groups_per_prompt",
         source="slime issue #2230 and #1414 (open at 624b824)",
         settings=dict(advantage_estimator="grpo", n_samples_per_prompt=4, rollout_batch_size=3),
         spec=dict(seed=103, group_sizes=[4, 3, 4], prompt_len=24,
                   turns_list=[S(12), S(30), S(7), S(55), S(20, 9, 6), S(41), S(15), S(3), S(66), S(25), S(11)],
                   rewards=[1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0]),
         what="11 samples in groups of 4, 3 and 4 (n_samples_per_prompt 4, rollout_batch_size 3): slime's "
              "_post_process_rewards falls back to one mean/std over the whole batch, so the stored rewards and "
              "the constant per-sample advantages/returns are not group-normalised (the all-1.0 group gets a "
              "nonzero advantage); raw_reward is unchanged"),
    dict(file="uneven_groups_batch_norm_rppb", variant="uneven_groups_batch_norm", twin_patch="fix_groups_per_prompt",
         source="slime issue #2230 and #1414 (open at 624b824)",
         settings=dict(advantage_estimator="reinforce_plus_plus_baseline", n_samples_per_prompt=4, rollout_batch_size=3,
                       kl_coef=0.02, kl_loss_type="k3"),
         spec=dict(seed=104, group_sizes=[4, 4, 3], prompt_len=30,
                   turns_list=[S(18), S(9, 14, 5), S(33), S(4), S(60), S(21), S(12, 8, 16), S(45), S(7), S(28), S(50)],
                   rewards=[0.9, 0.1, 0.5, 0.7, 2.0, 1.5, 2.5, 1.0, -1.0, -0.2, -0.6]),
         what="reinforce_plus_plus_baseline with groups of 4, 4 and 3: the baseline subtracted from each reward is "
              "the whole-batch mean instead of the prompt group's, so stored rewards, advantages and returns are "
              "shifted by a per-group constant; kl and raw_reward unchanged"),
    dict(file="ppo_kl_inplace", variant="ppo_kl_inplace", bug_patch="ppo_kl_inplace", source="slime PR #2114",
         settings=dict(advantage_estimator="ppo", gamma=1.0, lambd=0.97, kl_coef=0.03, kl_loss_type="k1"),
         spec=dict(seed=105, turns_list=[S(44), S(10, 25, 18), S(150), S(5), S(70)], rewards=[1.0, -1.0, 0.5, 0.0, 0.2]),
         what="PPO scaled rollout_data['kl'] in place, so the dumped kl is the token-level reward "
              "(-kl_coef * kl, plus the reward on the last token); advantages and returns are right"),
    dict(file="rpp_restart_after_mask", variant="rpp_restart_after_mask", bug_patch="rpp_restart_after_mask",
         source="verl PR #6376", settings=dict(advantage_estimator=R, gamma=0.98, kl_coef=0.01, kl_loss_type="k3"),
         spec=dict(seed=106, turns_list=[S(30, 20, 40), S(80), S(12, 50, 25), S(100, 10, 5), S(33), S(7, 7, 7)],
                   rewards=[1.0, 0.5, -1.0, 1.0, 0.0, 0.75]),
         what="the REINFORCE++ reward-to-go restarts at every tool (mask-0) token, so tokens before a tool span "
              "lose the later reward and KL terms: returns (= advantages) differ before each span; kl unchanged"),
    dict(file="ppo_reward_last_trainable", variant="ppo_reward_last_trainable", bug_patch="ppo_reward_last_trainable",
         source="miles PR #1827", settings=dict(advantage_estimator="ppo", gamma=0.99, lambd=0.95, kl_coef=0.02, kl_loss_type="k2"),
         spec=dict(seed=107, turns_list=[S(50, 30), S(40), S(20, 15, 25), S(90, 60), S(11)], rewards=[1.0, 0.5, -0.5, -1.0, 0.3]),
         what="PPO's scalar reward lands on the last trainable (mask-1) token instead of the last response token, "
              "so advantages and returns differ in samples that end in a tool span; kl unchanged"),
    dict(file="grpo_kl_applied", variant="grpo_kl_applied", bug_patch="grpo_kl_applied", source="slime issue #397",
         settings=dict(advantage_estimator="grpo", n_samples_per_prompt=2, rollout_batch_size=3, kl_coef=0.05,
                       kl_loss_type="low_var_kl"),
         spec=dict(seed=108, n_per_prompt=2, turns_list=[S(25), S(40, 10, 8), S(17), S(130), S(6), S(60)],
                   rewards=[1.0, 0.0, 0.3, -0.5, 1.0, 0.0]),
         what="grpo with the KL penalty applied (A = R - kl_coef * kl on every token) although slime ignores "
              "kl_coef for grpo: advantages and returns vary per token; kl and rewards unchanged"),
    dict(file="whiten_float32_cancellation_1e4", variant="whiten_float32_cancellation", twin_patch="fix_whiten_float64",
         source="NeMo-RL PR #4158", settings=dict(advantage_estimator=R, gamma=1.0, kl_coef=0.001, kl_loss_type="k1",
                                                normalize_advantages=True),
         spec=dict(seed=109, turns_list=[S(80), S(20, 15, 30), S(150), S(45), S(110)],
                   rewards=[10000.3, 9999.2, 10001.1, 10000.0, 9998.7]),
         what="rewards near 1e4 with O(1) spread: slime's float32 one-pass whitening (E[x^2] - E[x]^2) cancels, so "
              "the stored advantages are garbage (or NaN); returns and kl unchanged"),
    dict(file="whiten_float32_cancellation_1e3", variant="whiten_float32_cancellation", twin_patch="fix_whiten_float64",
         source="NeMo-RL PR #4158", settings=dict(advantage_estimator=R, gamma=1.0, kl_coef=0.002, kl_loss_type="k2",
                                                normalize_advantages=True),
         spec=dict(seed=110, turns_list=[S(90), S(30, 20, 25), S(140), S(60), S(120)],
                   rewards=[1000.4, 999.1, 1001.2, 1000.0, 998.6]),
         what="rewards near 1e3 with O(1) spread: slime's float32 one-pass whitening loses digits in the variance, "
              "so the stored advantages are scaled wrongly by a few percent; returns and kl unchanged"),
    dict(file="chunk_carry_mispowered", variant="chunk_carry_mispowered", bug_patch="chunk_carry_mispowered",
         source="synthetic: slime's chunked_discounted_returns (chunk 128) with the carry mis-powered",
         settings=dict(advantage_estimator=R, gamma=0.99, kl_coef=0.02, kl_loss_type="k1"),
         spec=dict(seed=111, turns_list=[S(300), S(520), S(45), S(40, 60, 160), S(600)], rewards=[1.0, -1.0, 0.5, 1.0, 0.25]),
         what="the value carried into each 128-token chunk of the scan is multiplied by gamma^k instead of "
              "gamma^(k+1): returns (= advantages) are off by a factor ~1/gamma in the carried part of every token "
              "before a chunk boundary (boundaries counted from the end of the padded batch); kl unchanged"),
    dict(file="chunk_carry_dropped", variant="chunk_carry_dropped", bug_patch="chunk_carry_dropped",
         source="synthetic: slime's chunked_discounted_returns (chunk 128) with the carry dropped",
         settings=dict(advantage_estimator="ppo", gamma=1.0, lambd=0.99, kl_coef=0.01, kl_loss_type="k3"),
         spec=dict(seed=112, turns_list=[S(280), S(35), S(400), S(60, 30, 200), S(550)], rewards=[1.0, 0.0, -1.0, 0.5, 1.0]),
         what="the GAE scan drops the value carried into each 128-token chunk, so advantages and returns of every "
              "token before a chunk boundary miss everything after it; kl unchanged"),
    dict(file="returns_bfloat16", variant="returns_bfloat16", bug_patch="returns_bfloat16",
         source="synthetic: REINFORCE++ scan in bfloat16",
         settings=dict(advantage_estimator=R, gamma=0.995, kl_coef=0.03, kl_loss_type="k2"),
         spec=dict(seed=113, turns_list=[S(200), S(30, 40, 90), S(450), S(15), S(600)], rewards=[1.0, -0.5, 0.7, 0.0, -1.0]),
         what="REINFORCE++ token rewards are cast to bfloat16 for the scan and the result back to float32, so "
              "returns (= advantages) carry bf16 rounding, and gamma itself rounds in slime's bf16 discount matrix "
              "(0.995 -> 0.99609375), so long responses end up tens of percent off; kl unchanged"),
]


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "variants-out"
    self_check()
    write_pairs(out, PAIRS, "scripts/dumps/make_variants.py (slime 624b824, torch " + torch.__version__ + ")")
