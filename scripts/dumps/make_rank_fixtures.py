"""Writes cases/dumps/rank-format/: slime's first train-dump format, one file per rank, with slime's OWN code.

From slime ed2f3a999 (2025-07-23, "Dump more data for visualization", #93) to d38dc29c9 (2026-08-12, the
parent of 681b3adca "Refactor --save-debug-train-data", #2266), every rank of the trainer ran

    torch.save(dict(rollout_id=rollout_id, rank=torch.distributed.get_rank(), rollout_data=rollout_data),
               f"{dump_details}/train_data/{rollout_id}_{rank}.pt")

with `rollout_data` the rank's own columns (lists of per-sample values for its data-parallel shard), the
per-token fields computed by the model (log_probs, ref_log_probs, values, kl, advantages, returns, and the
rollout log-probs sliced at reading) cut to the rank's context-parallel slice. This script runs that code as it
stood at d38dc29c9, the last commit that wrote the format, over a small world of CPU processes (gloo):

  * RolloutManager._post_process_rewards / _convert_samples_to_train_data / _split_train_data_by_dp and
    _save_debug_rollout_data, with the module-level _cpu_tensor / _tensorize_rollout_data_for_training they call
    (slime/ray/rollout.py imports ray and sglang, so these bodies are compiled from that file's AST, unchanged);
  * slime.utils.dp_schedule.build_dp_schedule, slime.utils.data.process_rollout_data;
  * MegatronTrainRayActor._get_rollout_data (compiled from actor.py's AST; `torch.cuda.current_device()` -> "cpu");
  * slime.backends.megatron_utils.loss.compute_advantages_and_returns (cp_utils' all-gather over the CP group,
    distributed_masked_whiten over the DP x CP group: real gloo groups) and, on a pipeline stage that is not the
    last, its early return;
  * slime.utils.train_dump_utils.save_debug_train_data, with the path template --dump-details sets
    (slime_validate_args at d38dc29c9): DIR/train_data/{rollout_id}_{rank}.pt.

Synthetic, as in gen_lib.py: token ids, text, the model's log-probs, the critic's values (no model). The model's
per-token outputs are cut to each rank's CP slice with slime's own slice_log_prob_with_cp, as forward_only hands
them back on the last pipeline stage (other stages get none). megatron.core.mpu is tests/_cp_dist_helpers.py's
stub with the rank functions set per process (Megatron's default order tp-cp-dp-pp), ray is get/put identity.

Setup (once; torch 1.13 from Debian's python3-torch; MIRROR is a clone of THUDM/slime):
    sh scripts/dumps/setup_work.sh MIRROR d38dc29c9 dumps-work-rank
Run from the directory holding dumps-work-rank/:
    PYTHONPATH=dumps-work-rank/shim:dumps-work-rank/stubs:dumps-work-rank/slime \\
        /usr/bin/python3 scripts/dumps/make_rank_fixtures.py OUT_DIR
It writes OUT_DIR/<set>/train_data/{id}_{rank}.pt (and rollout_data/{id}.pt) and OUT_DIR/manifest.json.
"""

from __future__ import annotations

import ast
import itertools
import json
import logging
import os
import socket
import sys
import types
from argparse import Namespace

SLIME = os.environ.get("SLIME_WORK", "dumps-work-rank") + "/slime"
COMMIT = "d38dc29c9"
OUT = sys.argv[1] if len(sys.argv) > 1 else "rank-fixtures-out"

sys.path.insert(0, f"{SLIME}/tests")
import _cp_dist_helpers  # noqa: E402,F401  (installs the megatron.core.mpu stub before cp_utils is imported)

if "ray" not in sys.modules:
    _ray = types.ModuleType("ray")
    _ray.get = lambda ref: ref
    _ray.put = lambda value, **_kwargs: value
    sys.modules["ray"] = _ray

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.distributed.nn  # noqa: E402,F401  (all_gather_with_cp uses dist.nn.all_reduce)
import torch.multiprocessing as mp  # noqa: E402
from megatron.core import mpu  # noqa: E402  (the stub)

from slime.backends.megatron_utils import loss as slime_loss  # noqa: E402
from slime.backends.megatron_utils.cp_utils import slice_log_prob_with_cp  # noqa: E402
from slime.utils import train_dump_utils  # noqa: E402
from slime.utils.data import get_source, process_rollout_data  # noqa: E402
from slime.utils.dp_schedule import build_dp_schedule  # noqa: E402
from slime.utils.misc import Box  # noqa: E402
from slime.utils.types import RolloutBatch, Sample  # noqa: E402

logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")


# --- unmodified slime code out of files that cannot be imported here -----------------------------
def compile_nodes(path: str, wanted, globs: dict, class_name: str | None = None) -> dict:
    """Compiles the named top-level functions/assignments (or a class's methods) of a slime file, unchanged."""
    tree = ast.parse(open(path, encoding="utf-8").read(), filename=path)
    body = tree.body
    if class_name:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == class_name).body
    ns = dict(globs)
    found = set()
    for node in body:
        name = node.name if isinstance(node, ast.FunctionDef) else None
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
        if name in wanted:
            if isinstance(node, ast.FunctionDef):
                assert not node.decorator_list, f"{name} has decorators"
            exec(compile(ast.Module(body=[node], type_ignores=[]), path, "exec"), ns)  # slime's file and lines
            found.add(name)
    assert found == set(wanted), set(wanted) - found
    return ns


_rollout_module = compile_nodes(
    f"{SLIME}/slime/ray/rollout.py",
    ["_ROLLOUT_DATA_TENSOR_DTYPES", "_cpu_tensor", "_tensorize_rollout_data_for_training"],
    {"torch": torch, "np": np, "Any": object},
)
_ROLLOUT_GLOBALS = {
    "torch": torch,
    "ray": sys.modules["ray"],
    "itertools": itertools,
    "Path": __import__("pathlib").Path,
    "logger": logging.getLogger("slime.ray.rollout"),
    "Sample": Sample,
    "Box": Box,
    "get_source": get_source,
    "build_dp_schedule": build_dp_schedule,
    "_tensorize_rollout_data_for_training": _rollout_module["_tensorize_rollout_data_for_training"],
}
ROLLOUT = compile_nodes(
    f"{SLIME}/slime/ray/rollout.py",
    ["_post_process_rewards", "_convert_samples_to_train_data", "_split_train_data_by_dp", "_save_debug_rollout_data"],
    _ROLLOUT_GLOBALS,
    class_name="RolloutManager",
)


class _TorchOnCpu(types.ModuleType):
    """torch, but torch.cuda.current_device() is the CPU (only inside the compiled _get_rollout_data)."""

    cuda = types.SimpleNamespace(current_device=lambda: "cpu")

    def __getattr__(self, name):
        return getattr(torch, name)


ACTOR = compile_nodes(
    f"{SLIME}/slime/backends/megatron_utils/actor.py",
    ["_get_rollout_data"],
    {
        "torch": _TorchOnCpu("torch"),
        "mpu": mpu,
        "process_rollout_data": process_rollout_data,
        "slice_log_prob_with_cp": slice_log_prob_with_cp,
        "Box": Box,
        "RolloutBatch": RolloutBatch,
    },
    class_name="MegatronTrainRayActor",
)


class FakeRolloutManager:
    """Just enough `self` for RolloutManager's methods."""

    def __init__(self, args, train_parallel_config):
        self.args = args
        self.custom_reward_post_process_func = None
        self.custom_convert_samples_to_train_data_func = None
        self.train_parallel_config = train_parallel_config

    _post_process_rewards = ROLLOUT["_post_process_rewards"]
    _convert_samples_to_train_data = ROLLOUT["_convert_samples_to_train_data"]
    _split_train_data_by_dp = ROLLOUT["_split_train_data_by_dp"]
    _save_debug_rollout_data = ROLLOUT["_save_debug_rollout_data"]


class FakeActor:
    def __init__(self, args):
        self.args = args

    _get_rollout_data = ACTOR["_get_rollout_data"]


# --- synthetic samples (real Sample objects; multi-turn through append_response_tokens) ----------
IM_START, IM_END, VOCAB = 151644, 151645, 151643


def _tokens(rng, n, end_with=None):
    t = rng.randint(0, VOCAB, size=n).astype(np.int64)
    if end_with is not None and n > 0:
        t[-1] = end_with
    return [int(x) for x in t]


def make_samples(seed, turns_list, rewards, n_per_prompt, prompt_len):
    rng = np.random.RandomState(seed)
    samples = []
    for k, (turns, reward) in enumerate(zip(turns_list, rewards)):
        g = k // n_per_prompt
        prompt = _tokens(np.random.RandomState(seed * 100 + g), prompt_len + 5 * g)
        prompt[0] = IM_START
        s = Sample(group_index=g, index=k, prompt=f"<|im_start|>user\nquestion {g}<|im_end|>\n", tokens=list(prompt),
                   metadata={"source_name": "gsm8k" if g % 2 == 0 else "swe_tool"})
        for j, (kind, n) in enumerate(turns):
            if kind == "model":
                lps = -np.abs(rng.normal(0, 0.4, n)) * (rng.random_sample(n) < 0.4)
                s.append_response_tokens(None, tokens=_tokens(rng, n, IM_END), log_probs=[float(x) for x in lps],
                                         trainable=True, meta_info={"finish_reason": {"type": "stop"}},
                                         text=f"<assistant turn {j}: {n} tokens>")
            else:
                s.append_response_tokens(None, tokens=_tokens(rng, n, IM_END), trainable=False,
                                         text=f"<tool_response turn {j}: {n} tokens>")
        s.reward = reward
        samples.append(s)
    return samples


def synth_forward(seed, samples, with_values):
    """The model's per-token outputs over each whole response (float32): what the forward passes would give."""
    rng = np.random.RandomState(seed)
    out = []
    for s in samples:
        n = s.response_length
        mask = np.asarray(s.loss_mask, dtype=np.int64)
        rlp = np.asarray(s.rollout_log_probs, dtype=np.float64)
        lp = np.where(mask == 1, -np.abs(rlp + rng.normal(0, 0.02, n)), -rng.uniform(0.0, 6.0, n))
        ref = -np.abs(lp + rng.normal(0, 0.03, n) - np.abs(rng.normal(0, 0.12, n)) * (rng.random_sample(n) < 0.3))
        rec = {"log_probs": lp.astype(np.float32), "ref_log_probs": ref.astype(np.float32)}
        if with_values:
            t = np.arange(n) / max(n - 1, 1)
            rec["values"] = (0.3 * np.tanh(rng.normal()) + 0.4 * float(s.reward) * t + rng.normal(0, 0.05, n)).astype(
                np.float32
            )
        out.append(rec)
    return out


def base_args(**overrides) -> Namespace:
    a = dict(
        advantage_estimator="reinforce_plus_plus",
        rewards_normalization=True,
        grpo_std_normalization=True,
        reward_key=None,
        n_samples_per_prompt=1,
        rollout_batch_size=1,
        rollout_top_p=1.0,
        use_rollout_routing_replay=False,
        rollout_data_transport="object-store",
        global_batch_size=1,
        use_dynamic_batch_size=True,
        max_tokens_per_gpu=4096,
        micro_batch_size=1,
        balance_data=False,
        balance_by_flops=False,
        use_rollout_logprobs=False,
        kl_coef=0.0,
        kl_loss_type="k1",
        custom_advantage_function_path=None,
        gamma=1.0,
        lambd=1.0,
        use_opd=False,
        normalize_advantages=False,
        use_kl_loss=False,
        use_critic=False,
        loss_type="policy_loss",
        get_mismatch_metrics=False,
        keep_old_actor=False,
        use_routing_replay=False,
    )
    a.update(overrides)
    return Namespace(**a)


# --- one process per global rank -----------------------------------------------------------------
def rank_of(tp, cp, dp, pp, TP, CP, DP):
    """Megatron's default order tp-cp-ep-dp-pp (dense model: ep = 1)."""
    return tp + TP * (cp + CP * (dp + DP * pp))


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def worker(rank, layout, port, spec):
    TP, CP, DP, PP = layout["tp"], layout["cp"], layout["dp"], layout["pp"]
    world = TP * CP * DP * PP
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    tp, cp, dp, pp = rank % TP, (rank // TP) % CP, (rank // (TP * CP)) % DP, rank // (TP * CP * DP)
    # every process creates every group, in the same order (gloo's new_group is collective)
    cp_groups, dp_cp_groups = {}, {}
    for t, d, p in itertools.product(range(TP), range(DP), range(PP)):
        cp_groups[t, d, p] = dist.new_group([rank_of(t, c, d, p, TP, CP, DP) for c in range(CP)])
    for t, p in itertools.product(range(TP), range(PP)):
        dp_cp_groups[t, p] = dist.new_group([rank_of(t, c, d, p, TP, CP, DP) for d in range(DP) for c in range(CP)])
    mpu.get_context_parallel_world_size = lambda: CP
    mpu.get_context_parallel_rank = lambda: cp
    mpu.get_context_parallel_group = lambda: cp_groups[tp, dp, pp]
    mpu.is_pipeline_last_stage = lambda *a, **k: pp == PP - 1
    mpu.get_tensor_model_parallel_rank = lambda: tp
    mpu.get_data_parallel_rank = lambda with_context_parallel=False: dp * CP + cp if with_context_parallel else dp
    mpu.get_data_parallel_world_size = lambda with_context_parallel=False: DP * CP if with_context_parallel else DP
    mpu.get_data_parallel_group = lambda with_context_parallel=False: dp_cp_groups[tp, pp]
    mpu.get_data_parallel_group_gloo = lambda with_context_parallel=False: dp_cp_groups[tp, pp]

    d = f"{OUT}/{spec['name']}"
    args = base_args(
        # slime_validate_args at d38dc29c9, for --dump-details DIR
        save_debug_rollout_data=f"{d}/rollout_data/{{rollout_id}}.pt",
        save_debug_train_data=f"{d}/train_data/{{rollout_id}}_{{rank}}.pt",
        **spec["settings"],
    )
    samples = make_samples(spec["seed"], spec["turns"], spec["rewards"], spec["n_per_prompt"], spec["prompt_len"])
    fwd = synth_forward(spec["seed"] + 1, samples, with_values=args.use_critic)
    rollout_id = spec["rollout_id"]

    tpc = {"dp_size": DP, "cp_size": CP, "vpp_size": 1, "microbatch_group_size_per_vp_stage": 1}
    manager = FakeRolloutManager(args, tpc)
    if rank == 0:
        manager._save_debug_rollout_data(samples, rollout_id=rollout_id, evaluation=False)
    train_data = manager._convert_samples_to_train_data(samples)
    refs = manager._split_train_data_by_dp(train_data)
    # process_rollout_data pops `partition`: keep a copy to hand each local sample its forward outputs
    partition = list(refs[dp].inner["partition"])
    rollout_data = FakeActor(args)._get_rollout_data(refs)
    tl, rl = rollout_data["total_lengths"], rollout_data["response_lengths"]

    def local(key):
        return [slice_log_prob_with_cp(torch.from_numpy(fwd[pos][key].copy()), tl[i], rl[i])
                for i, pos in enumerate(partition)]

    last = pp == PP - 1
    # train_actor at d38dc29c9: forward_only stores its outputs on the last pipeline stage only
    if last and (args.kl_coef != 0 or args.use_kl_loss):
        rollout_data["ref_log_probs"] = local("ref_log_probs")
    can_reuse = (len(rollout_data["num_microbatches"]) == 1 and args.loss_type == "policy_loss"
                 and args.kl_coef == 0 and not args.use_rollout_logprobs and not args.get_mismatch_metrics
                 and not args.use_critic and not args.keep_old_actor and not args.use_opd
                 and args.advantage_estimator != "gspo")
    if last and (not args.use_rollout_logprobs or args.get_mismatch_metrics) and not can_reuse:
        rollout_data["log_probs"] = local("log_probs")
    if last and args.use_critic:
        rollout_data["values"] = local("values")
    slime_loss.compute_advantages_and_returns(args, rollout_data)
    train_dump_utils.save_debug_train_data(args, rollout_id=rollout_id, rollout_data=rollout_data)
    dist.barrier()
    dist.destroy_process_group()


def S(*parts):
    """S(40) one model turn; S(8, 12, 30): model, tool, model."""
    return [("model" if i % 2 == 0 else "tool", n) for i, n in enumerate(parts)]


SETS = [
    dict(
        name="ppo_cp2_dp2",
        layout=dict(tp=1, cp=2, dp=2, pp=1),
        rollout_id=5,
        seed=31,
        settings=dict(advantage_estimator="ppo", use_critic=True, gamma=0.99, lambd=0.95, kl_coef=0.02,
                      kl_loss_type="k1", normalize_advantages=True, global_batch_size=8, rollout_batch_size=8),
        turns=[S(3), S(1), S(40), S(9, 14, 30), S(110), S(6, 20, 12), S(70), S(25)],
        rewards=[1.0, 0.0, -1.0, 0.5, 1.0, 0.25, 0.0, 1.0],
        n_per_prompt=1,
        prompt_len=2,
        note="ppo, context parallel 2 x data parallel 2: every per-token field the model computed is CP-local; "
        "a 5-token sample puts CP rank 0's reward on response token 0, not the last (CONTEXT_PARALLEL.md). slime at "
        "d38dc29c9 scales the stored kl in place (-kl_coef * kl, the reward added on CP rank 0's last token; "
        "fixed by #2114 on 2026-08-20): the kl stage departs, the returns and advantages pass",
        expect="kl departs: ppo's in-place kl (#2114)",
    ),
    dict(
        name="rpp_cp2",
        layout=dict(tp=1, cp=2, dp=1, pp=1),
        rollout_id=7,
        seed=33,
        settings=dict(advantage_estimator="reinforce_plus_plus", gamma=0.99, kl_coef=0.02, kl_loss_type="k2",
                      normalize_advantages=True, global_batch_size=5, rollout_batch_size=5),
        turns=[S(33), S(8, 12, 30), S(2), S(64), S(17)],
        rewards=[1.0, 0.0, -0.5, 1.0, 0.25],
        n_per_prompt=1,
        prompt_len=5,
        note="reinforce_plus_plus, context parallel 2, advantages whitened over the DP x CP group",
        expect="pass",
    ),
    dict(
        name="rppb_tp2_pp2",
        layout=dict(tp=2, cp=1, dp=1, pp=2),
        rollout_id=2,
        seed=32,
        settings=dict(advantage_estimator="reinforce_plus_plus_baseline", kl_coef=0.03, kl_loss_type="k1",
                      n_samples_per_prompt=2, rollout_batch_size=3, global_batch_size=6),
        turns=[S(30), S(12, 8, 20), S(55), S(4), S(18, 6, 9), S(41)],
        rewards=[1.0, 0.0, 1.0, 1.0, 0.0, 0.5],
        n_per_prompt=2,
        prompt_len=10,
        note="reinforce_plus_plus_baseline, tensor parallel 2 x pipeline parallel 2: ranks 0-1 are the first pipeline "
        "stage (no log-probs, no advantages: compute_advantages_and_returns returns there), ranks 2-3 the last, "
        "each a tensor-parallel copy of the other",
        expect="pass",
    ),
]


if __name__ == "__main__":
    manifest = []
    for spec in SETS:
        L = spec["layout"]
        world = L["tp"] * L["cp"] * L["dp"] * L["pp"]
        mp.spawn(worker, args=(L, free_port(), spec), nprocs=world, join=True)
        files = [f"{spec['name']}/train_data/{spec['rollout_id']}_{r}.pt" for r in range(world)]
        settings = {k: v for k, v in spec["settings"].items() if k not in ("use_critic", "global_batch_size")}
        manifest.append({"set": spec["name"], "rollout_id": spec["rollout_id"], "layout": L, "files": files,
                         "rollout": f"{spec['name']}/rollout_data/{spec['rollout_id']}.pt",
                         "settings": settings, "cp_size": L["cp"], "expect": spec["expect"], "note": spec["note"]})
    with open(f"{OUT}/manifest.json", "w") as fh:
        json.dump({"written_by": f"scripts/dumps/make_rank_fixtures.py (slime {COMMIT}, torch {torch.__version__})",
                   "sets": manifest}, fh, indent=1)
