import { cpLayout, cpLayoutProblem, reassemble } from "../../core";
import { IoError } from "../ioError";
import type { PyDict, PyKey, PyValue, Tensor } from "../tensorFiles/tensorTypes";
import { assignCpRanks, type CpAssignment } from "./cpRankAssignment";
import { type CpLocalField, type FloatData, type RankColumns, readRankColumns } from "./rankColumns";
import { baseName, rankFileName } from "./rankFiles";

/** A per-rank file as read (readTensorFile's root), with the name messages give it. */
export interface RankFile {
  source: string;
  root: PyValue;
}

/** What became of one file given (part of "no file silently dropped"). */
export interface RankFileUse {
  source: string;
  rank: number;
  used: boolean;
  /** "data-parallel shard 0, CP rank 1", or why it was not needed. */
  why: string;
}

export interface MergedRankRoot {
  step: number;
  /** The step as a format-2 train dump's object (`{format_version, rollout_id, samples, raw_reward}`): what understandDump reads. */
  root: PyDict;
  /** The files as one name for messages: `train_data/5_{0,1,2,3}.pt`. */
  label: string;
  cpSize: number;
  files: RankFileUse[];
  notes: string[];
}

export interface RankMergeOptions {
  /** The run's context-parallel size, when the user knows it; else read off the slice lengths. */
  contextParallelSize?: number;
}

/** The largest cp_size tried when the slices' lengths are to tell it. */
export const MAX_CP_SIZE_READ = 64;

interface Member {
  columns: RankColumns;
  /** Files with the very same values (tensor-parallel copies), in rank order. */
  copies: RankColumns[];
  /** Its context-parallel rank, once the layout is read (0 at cp_size 1). */
  cpRank: number;
}

interface Shard {
  members: Member[];
  /** The per-token fields held as CP slices in this shard (the rest are whole). */
  localFields: CpLocalField[];
}

/**
 * One step's per-rank files merged into the format-2 object the rest of Scanlab reads: the
 * data-parallel shards side by side, in rollout order, each per-token field rebuilt whole from its
 * context-parallel slices (slime's zigzag layout, CONTEXT_PARALLEL.md). Refused, with the file and
 * what to give, when the files mix steps, repeat a rank or miss what the merge needs. Throws IoError.
 */
export function mergeRankRoots(files: readonly RankFile[], options: RankMergeOptions = {}): MergedRankRoot {
  if (files.length === 0) throw new IoError("", "no per-rank files given");
  const all = files.map((f) => readRankColumns(f.root, f.source)).sort((a, b) => a.rank - b.rank);
  const notes: string[] = [];
  const step = oneStep(all);
  const label = labelOf(all, step);
  for (const c of all) {
    const named = rankFileName(c.source);
    if (named && (named.step !== c.step || named.rank !== c.rank)) {
      notes.push(
        `${c.source}: named step ${named.step}, rank ${named.rank}, but it holds rollout_id ${c.step}, rank ${c.rank}; read as what it holds`,
      );
    }
  }
  const gaps = missingRanks(all);
  const uses: RankFileUse[] = [];
  const withAdvantages = all.filter((c) => c.fields.has("advantages"));
  for (const c of all) {
    if (!c.fields.has("advantages")) {
      uses.push({
        source: c.source,
        rank: c.rank,
        used: false,
        why: "holds no advantages: a pipeline stage before the last (slime computes them on the last stage only)",
      });
    }
  }
  if (withAdvantages.length === 0) {
    throw new IoError(
      "",
      `none of the files holds advantages (rollout_data.advantages): they are the first pipeline stages' files; give the last stage's ranks of step ${step}${gapText(gaps, all, step)}`,
      names(all),
    );
  }
  for (const c of withAdvantages) {
    if (!c.fields.has("returns"))
      throw new IoError("field rollout_data.returns", "is missing, though rollout_data.advantages is there", c.source);
  }
  const shards = shardsOf(withAdvantages);
  const cpSize = readCpSize(shards, all, step, gaps, options);
  const rawReward = wholeBatchRewards(all);
  const count = shards.reduce((n, s) => n + s.members[0].columns.count, 0);
  if (rawReward && count < rawReward.length) {
    throw new IoError(
      "",
      `the files hold ${count} of step ${step}'s ${rawReward.length} samples (raw_reward lists ${rawReward.length}): a data-parallel rank's files are missing; give all ranks of step ${step}${gapText(gaps, all, step, true)}`,
      names(all),
    );
  }
  if (rawReward && count > rawReward.length) {
    throw new IoError(
      "",
      `the files hold ${count} samples, but raw_reward lists ${rawReward.length}: files of two runs? give one run's ranks of step ${step}`,
      names(all),
    );
  }
  if (!rawReward) {
    if (gaps.length > 0) {
      throw new IoError(
        "",
        `${fileList(gaps, all, step)} missing, and the files do not say the batch's size (no raw_reward) to tell whether a data-parallel shard is missing with ${gaps.length > 1 ? "them" : "it"}: give all ranks of step ${step}`,
        names(all),
      );
    }
    notes.push(
      `${label}: no raw_reward says the batch's size: a data-parallel rank's files missing after rank ${all[all.length - 1].rank} would go unnoticed`,
    );
  } else if (gaps.length > 0) {
    notes.push(
      `${label}: ${fileList(gaps, all, step)} not given; not needed: the files hold every sample of raw_reward and every context-parallel slice`,
    );
  }

  shards.forEach((shard, k) => {
    for (const m of shard.members) {
      uses.push({
        source: m.columns.source,
        rank: m.columns.rank,
        used: true,
        why: `data-parallel shard ${k}${cpSize > 1 ? `, CP rank ${m.cpRank}` : ""}`,
      });
      for (const c of m.copies) {
        uses.push({
          source: c.source,
          rank: c.rank,
          used: false,
          why: `the same values as ${m.columns.source} (a tensor-parallel copy)`,
        });
      }
    }
  });
  uses.sort((a, b) => a.rank - b.rank);

  const samples = mergedSamples(shards, cpSize);
  const order = rolloutOrder(samples, rawReward, label, notes);
  const root: PyDict = new Map<PyKey, PyValue>([
    ["format_version", 2],
    ["rollout_id", step],
    ["rank", withAdvantages[0].rank],
    ["samples", order.map((s) => s.dict)],
  ]);
  if (rawReward) root.set("raw_reward", rawReward);
  const rebuilt = [...new Set(shards.flatMap((s) => s.localFields))];
  notes.unshift(
    `${label}: slime's first train-dump format (one file per rank, before format_version 2): step ${step}, ${all.length} rank file${all.length > 1 ? "s" : ""}, ${shards.length} data-parallel shard${shards.length > 1 ? "s" : ""}, cp_size ${cpSize}${rebuilt.length > 0 ? `; rebuilt whole from the context-parallel slices: ${rebuilt.join(", ")}` : ""}`,
    ...uses.filter((u) => !u.used).map((u) => `${u.source}: not used: ${u.why}`),
  );
  return { step, root, label, cpSize, files: uses, notes };
}

function oneStep(all: RankColumns[]): number {
  const steps = new Map<number, string[]>();
  for (const c of all) {
    const list = steps.get(c.step);
    if (list) list.push(c.source);
    else steps.set(c.step, [c.source]);
  }
  if (steps.size > 1) {
    const list = [...steps].sort((a, b) => a[0] - b[0]).map(([s, fs]) => `step ${s} (${fs.join(", ")})`);
    throw new IoError(
      "",
      `ranks of ${steps.size} steps: ${list.join(" and ")}; merge the files of one step at a time`,
      names(all),
    );
  }
  for (let i = 1; i < all.length; i++) {
    if (all[i].rank === all[i - 1].rank) {
      const twice = all.filter((c) => c.rank === all[i].rank).map((c) => c.source);
      throw new IoError(
        "",
        `rank ${all[i].rank} of step ${all[i].step} twice (${twice.join(", ")}): give each rank's file once`,
        names(all),
      );
    }
  }
  return all[0].step;
}

/** Ranks below the highest given that no file is: a run writes every rank's file. */
function missingRanks(all: RankColumns[]): number[] {
  const have = new Set(all.map((c) => c.rank));
  const out: number[] = [];
  for (let r = 0; r < all[all.length - 1].rank && out.length < 1000; r++) if (!have.has(r)) out.push(r);
  return out;
}

function names(all: RankColumns[]): string {
  return all.map((c) => c.source).join(", ");
}

function dirOf(source: string): string {
  return source.slice(0, source.length - baseName(source).length);
}

function fileList(ranks: number[], all: RankColumns[], step: number): string {
  const dir = dirOf(all[0].source);
  const shown = ranks.slice(0, 8).map((r) => `${dir}${step}_${r}.pt`);
  return `${shown.join(", ")}${ranks.length > 8 ? `, … (${ranks.length} files)` : ""}`;
}

function gapText(gaps: number[], all: RankColumns[], step: number, orAbove = false): string {
  const last = all[all.length - 1].rank;
  if (gaps.length > 0) return ` (missing: ${fileList(gaps, all, step)}${orAbove ? `, or ranks above ${last}` : ""})`;
  return orAbove ? ` (missing: ranks above ${last}, from ${fileList([last + 1], all, step)} on)` : "";
}

function labelOf(all: RankColumns[], step: number): string {
  const dirs = new Set(all.map((c) => dirOf(c.source)));
  if (dirs.size === 1 && all.every((c) => rankFileName(c.source) !== null)) {
    const ranks = all.map((c) => baseName(c.source).replace(/^\d+_/, "").replace(/\.pt$/, ""));
    return all.length === 1 ? all[0].source : `${[...dirs][0]}${step}_{${ranks.join(",")}}.pt`;
  }
  return all.map((c) => c.source).join(" + ");
}

/** The files grouped by the samples they hold (one group per data-parallel shard), copies folded together. */
function shardsOf(files: RankColumns[]): Shard[] {
  const byKey = new Map<string, RankColumns[]>();
  for (const c of files) {
    const key = shardKey(c);
    const group = byKey.get(key);
    if (group) group.push(c);
    else byKey.set(key, [c]);
  }
  const shards: Shard[] = [];
  const owner = new Map<number, string>();
  for (const group of byKey.values()) {
    for (const c of group) {
      for (const index of c.sampleIndices ?? []) {
        const other = owner.get(index);
        if (other !== undefined && !group.some((g) => g.source === other)) {
          throw new IoError(
            "",
            `both hold sample_index ${index} but different samples (other lengths or tokens): files of two runs? give one run's ranks`,
            `${other}, ${c.source}`,
          );
        }
        owner.set(index, c.source);
      }
    }
    const members: Member[] = [];
    for (const c of group) {
      const same = members.find((m) => sameValues(m.columns, c));
      if (same) same.copies.push(c);
      else members.push({ columns: c, copies: [], cpRank: 0 });
    }
    shards.push({ members, localFields: localFieldsOf(members) });
  }
  return shards;
}

function shardKey(c: RankColumns): string {
  const tokens = c.tokens.map((t) => (t ? digest(t.data) : "-"));
  return JSON.stringify([c.responseLengths, c.totalLengths, c.sampleIndices, tokens]);
}

/** FNV-1a over a sample's token ids: telling two shards' samples apart, not a checksum. */
function digest(data: ArrayLike<number>): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < data.length; i++) h = Math.imul(h ^ (data[i] | 0), 16777619);
  return `${data.length}:${(h >>> 0).toString(16)}`;
}

function sameValues(a: RankColumns, b: RankColumns): boolean {
  if (a.fields.size !== b.fields.size) return false;
  for (const [key, arrays] of a.fields) {
    const other = b.fields.get(key);
    if (!other || !arrays.every((x, i) => sameBits(x, other[i]))) return false;
  }
  return true;
}

function sameBits(a: FloatData, b: FloatData): boolean {
  if (a.length !== b.length || a.constructor !== b.constructor) return false;
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** The fields some member holds shorter than the response: CP slices. Every member must hold the same fields. */
function localFieldsOf(members: Member[]): CpLocalField[] {
  const first = members[0].columns;
  for (const m of members.slice(1)) {
    for (const key of new Set([...first.fields.keys(), ...m.columns.fields.keys()])) {
      if (first.fields.has(key) !== m.columns.fields.has(key)) {
        const [has, lacks] = first.fields.has(key) ? [first, m.columns] : [m.columns, first];
        throw new IoError(
          "",
          `hold the same samples, but only the first holds rollout_data.${key}: files of two runs or two configurations?`,
          `${has.source}, ${lacks.source}`,
        );
      }
    }
  }
  const local = [...first.fields.keys()].filter((key) =>
    members.some((m) =>
      (m.columns.fields.get(key) as FloatData[]).some((x, i) => x.length !== first.responseLengths[i]),
    ),
  );
  for (const m of members) {
    const [lead, ...rest] = local;
    const profile = lead ? (m.columns.fields.get(lead) as FloatData[]) : [];
    for (const key of rest) {
      (m.columns.fields.get(key) as FloatData[]).forEach((x, i) => {
        if (x.length !== profile[i].length) {
          throw new IoError(
            `field rollout_data.${key}[${i}]`,
            `holds ${x.length} tokens and rollout_data.${lead}[${i}] ${profile[i].length}: one rank's slices of a sample have one length`,
            m.columns.source,
          );
        }
      });
    }
  }
  return local;
}

/** The field messages name: the advantages when they are sliced (what the replay checks), else the first sliced one. */
function leadField(shard: Shard): CpLocalField {
  return shard.localFields.includes("advantages") || shard.localFields.length === 0
    ? "advantages"
    : shard.localFields[0];
}

function profileOf(m: Member, shard: Shard): number[] {
  const lead = leadField(shard);
  return lead ? (m.columns.fields.get(lead) as FloatData[]).map((x) => x.length) : m.columns.responseLengths;
}

/**
 * The run's cp_size: 1 when every field is whole (copies must then agree), else the one size whose
 * layout places every shard's files on distinct CP ranks (or the size given). Sets each member's CP rank.
 */
function readCpSize(
  shards: Shard[],
  all: RankColumns[],
  step: number,
  gaps: number[],
  options: RankMergeOptions,
): number {
  const split = shards.filter((s) => s.localFields.length > 0);
  if (split.length === 0) {
    for (const s of shards) {
      if (s.members.length > 1) throw conflicting(s.members[0].columns, s.members[1].columns);
    }
    return 1;
  }
  for (const s of shards) {
    for (const m of s.members) checkLayoutInputs(m, s, split[0]);
  }
  const sizes = options.contextParallelSize
    ? [options.contextParallelSize]
    : Array.from({ length: MAX_CP_SIZE_READ - 1 }, (_, k) => k + 2);
  const trials = sizes.map((n) => ({
    n,
    shards: shards.map((s) => {
      const c = s.members[0].columns;
      const T = c.totalLengths as number[];
      return assignCpRanks(
        s.members.map((m) => profileOf(m, s)),
        T,
        c.responseLengths,
        n,
      );
    }),
  }));
  const status = (t: (typeof trials)[number]) =>
    t.shards.some((a) => a.kind === "none")
      ? "none"
      : t.shards.some((a) => a.kind === "missing")
        ? "missing"
        : t.shards.some((a) => a.kind === "many")
          ? "many"
          : "one";
  const fitting = trials.filter((t) => status(t) === "one");
  if (fitting.length === 1) {
    const t = fitting[0];
    t.shards.forEach((a, k) => {
      if (a.kind === "one")
        shards[k].members.forEach((m, j) => {
          m.cpRank = a.ranks[j];
        });
    });
    return t.n;
  }
  const sizesText = (ts: typeof trials) => ts.map((t) => t.n).join(", ");
  if (fitting.length > 1) {
    throw new IoError(
      "",
      `the slice lengths fit cp_size ${sizesText(fitting)} alike: give the run's context-parallel size`,
      names(all),
    );
  }
  const missing = trials.filter((t) => status(t) === "missing");
  if (missing.length > 0)
    throw missingSlices(missing[0], shards, all, step, gaps, missing.length > 1 ? sizesText(missing.slice(1)) : "");
  const many = trials.filter((t) => status(t) === "many");
  if (many.length > 0) {
    const k = many[0].shards.findIndex((a) => a.kind === "many");
    const files = shards[k].members.map((m) => m.columns.source).join(", ");
    throw new IoError(
      "",
      `which context-parallel rank each of ${files} is cannot be told from its slice lengths (cp_size ${sizesText(many)}): give the run's context-parallel size`,
      names(all),
    );
  }
  throw noLayout(trials[0], shards, options);
}

/**
 * A CP-local field needs each sample's total length to be laid out; refused when the file has none
 * (and so is a shard held whole beside sliced ones: which rank holds it whole is read off the layout).
 */
function checkLayoutInputs(m: Member, shard: Shard, split: Shard): void {
  const c = m.columns;
  const lead = leadField(shard);
  const arrays = c.fields.get(lead) as FloatData[];
  const i = Math.max(
    0,
    arrays.findIndex((x, k) => x.length !== c.responseLengths[k]),
  );
  if (c.totalLengths === null && shard.localFields.length === 0) {
    const other = split.members[0].columns.source;
    throw new IoError(
      "",
      `holds every per-token field whole while ${other} holds context-parallel slices, and rollout_data has no total_lengths to tell which rank holds it whole: files of two runs? give one run's ranks`,
      c.source,
    );
  }
  if (c.totalLengths === null) {
    throw new IoError(
      "",
      `rank ${c.rank}'s rollout_data.${lead}[${i}] holds ${arrays[i].length} of the response's ${c.responseLengths[i]} tokens: a context-parallel slice, and rollout_data has no total_lengths to lay the sample out with (slime's zigzag split needs prompt + response length); the full-length fields cannot be rebuilt from these files`,
      c.source,
    );
  }
  c.totalLengths.forEach((T, k) => {
    const R = c.responseLengths[k];
    const problem = R > 0 ? cpLayoutProblem(T, R, 1) : null;
    if (problem)
      throw new IoError(`field rollout_data.total_lengths[${k}]`, `${problem}: no context-parallel layout`, c.source);
  });
}

function conflicting(a: RankColumns, b: RankColumns): IoError {
  for (const [key, arrays] of a.fields) {
    const other = b.fields.get(key) as FloatData[];
    for (let i = 0; i < arrays.length; i++) {
      const t = arrays[i].findIndex((x, k) => !Object.is(x, other[i][k]));
      if (t >= 0 || arrays[i].length !== other[i].length) {
        const where =
          t >= 0
            ? `token ${t}: ${arrays[i][t]} and ${other[i][t]}`
            : `${arrays[i].length} and ${other[i].length} tokens`;
        return new IoError(
          "",
          `hold the same samples, whole, but different values (rollout_data.${key}[${i}], ${where}): copies of one shard should be equal; give one run's ranks`,
          `${a.source}, ${b.source}`,
        );
      }
    }
  }
  return new IoError("", "hold the same samples but differ", `${a.source}, ${b.source}`);
}

function missingSlices(
  trial: { n: number; shards: CpAssignment[] },
  shards: Shard[],
  all: RankColumns[],
  step: number,
  gaps: number[],
  alsoFits: string,
): IoError {
  const k = trial.shards.findIndex((a) => a.kind === "missing");
  const a = trial.shards[k] as Extract<CpAssignment, { kind: "missing" }>;
  const shard = shards[k];
  const c = shard.members[0].columns;
  const lead = leadField(shard);
  const arrays = c.fields.get(lead) as FloatData[];
  const i = Math.max(
    0,
    arrays.findIndex((x, t) => x.length < c.responseLengths[t]),
  );
  // Every shard's missing ranks, where Megatron's order names them; else the gaps in the ranks given.
  const predicted: number[] = [];
  let named = true;
  trial.shards.forEach((x, j) => {
    if (x.kind !== "missing") return;
    const ranks = predictedRanks(shards, j, x);
    if (ranks) predicted.push(...ranks);
    else named = false;
  });
  const missingNames =
    named && predicted.length > 0
      ? fileList(
          predicted.sort((x, y) => x - y),
          all,
          step,
        )
      : gaps.length > 0
        ? fileList(gaps, all, step)
        : `the files of CP ${a.missing.length > 1 ? "ranks" : "rank"} ${a.missing.join(", ")} of its shard`;
  const fits = alsoFits ? `; the lengths also fit cp_size ${alsoFits}` : "";
  return new IoError(
    "",
    `rank ${c.rank}'s slice of rollout_data.${lead}[${i}] is CP-local (cp_size ${trial.n}, CP rank ${a.ranks[0]}: ${arrays[i].length} of the response's ${c.responseLengths[i]} tokens${fits}): give all ranks of step ${step} — missing: ${missingNames}`,
    c.source,
  );
}

/**
 * The global ranks of a shard's missing CP ranks under Megatron's default order (tp-cp-dp-pp):
 * rank = tp + TP·(cp + n·(dp + DP·pp)), TP read off the copies; null when the files given do not
 * agree on one base.
 */
function predictedRanks(shards: Shard[], k: number, a: Extract<CpAssignment, { kind: "missing" }>): number[] | null {
  const tp = Math.max(1, ...shards.map((s) => Math.max(...s.members.map((m) => m.copies.length + 1))));
  const bases = shards[k].members.map((m, j) => m.columns.rank - tp * a.ranks[j]);
  if (bases.some((b) => b !== bases[0]) || bases[0] < 0) return null;
  const given = new Set(
    shards.flatMap((s) => s.members.flatMap((m) => [m.columns.rank, ...m.copies.map((c) => c.rank)])),
  );
  const out = a.missing.map((r) => bases[0] + tp * r);
  return out.some((r) => given.has(r)) ? null : out;
}

function noLayout(trial: { n: number; shards: CpAssignment[] }, shards: Shard[], options: RankMergeOptions): IoError {
  const k = trial.shards.findIndex((a) => a.kind === "none");
  const a = trial.shards[Math.max(k, 0)] as Extract<CpAssignment, { kind: "none" }>;
  const shard = shards[Math.max(k, 0)];
  const m = shard.members[a.member] ?? shard.members[0];
  const c = m.columns;
  const sizes = options.contextParallelSize
    ? `cp_size ${options.contextParallelSize}`
    : `any cp_size from 2 to ${MAX_CP_SIZE_READ}`;
  if (a.sample >= 0) {
    const lead = leadField(shard);
    const L = (c.fields.get(lead) as FloatData[])[a.sample].length;
    const T = (c.totalLengths as number[])[a.sample];
    return new IoError(
      "",
      `rank ${c.rank}'s rollout_data.${lead}[${a.sample}] holds ${L} of the response's ${c.responseLengths[a.sample]} tokens (a ${T}-token sample): no context-parallel rank of ${sizes} holds that many in slime's zigzag split, together with its other samples`,
      c.source,
    );
  }
  const files = shard.members.map((x) => x.columns.source).join(", ");
  return new IoError(
    "",
    `the slices of ${files} fit no placement on distinct context-parallel ranks of ${sizes} in Megatron's rank order (tp-cp-dp-pp)`,
    files,
  );
}

function wholeBatchRewards(all: RankColumns[]): number[] | null {
  const withRaw = all.filter((c) => c.rawReward !== null);
  if (withRaw.length === 0) return null;
  const first = withRaw[0];
  for (const c of withRaw.slice(1)) {
    const a = first.rawReward as number[];
    const b = c.rawReward as number[];
    if (a.length !== b.length || a.some((x, i) => !Object.is(x, b[i]))) {
      throw new IoError(
        "",
        "their raw_reward (the whole batch's) differ: files of two runs? give one run's ranks",
        `${first.source}, ${c.source}`,
      );
    }
  }
  return first.rawReward;
}

interface MergedSample {
  shard: number;
  sampleIndex: number | null;
  localRawReward: number | null;
  /** The reward trained on (`rewards`): the raw reward itself where slime does not normalise it. */
  reward: number | null;
  dict: PyDict;
}

/** Each shard's samples, whole: CP-local fields reassembled from the members' slices. */
function mergedSamples(shards: Shard[], cpSize: number): MergedSample[] {
  const out: MergedSample[] = [];
  shards.forEach((shard, k) => {
    const members = shard.members;
    const lead = members[0].columns;
    const byRank = new Map(members.map((m) => [m.cpRank, m]));
    const from = members.map((m) => baseName(m.columns.source)).join(" + ");
    for (let i = 0; i < lead.count; i++) {
      const R = lead.responseLengths[i];
      const d: PyDict = new Map<PyKey, PyValue>();
      d.set("data_parallel_rank", k);
      const sampleIndex = lead.sampleIndices ? lead.sampleIndices[i] : null;
      if (sampleIndex !== null) d.set("sample_index", sampleIndex);
      const tokens = lead.tokens[i];
      if (tokens) d.set("tokens", tokens);
      d.set("response_lengths", R);
      if (lead.totalLengths) d.set("total_lengths", lead.totalLengths[i]);
      for (const [key, values] of lead.scalars) d.set(key, values[i]);
      d.set("loss_masks", lead.lossMasks[i]);
      for (const [key, arrays] of lead.fields) {
        if (!shard.localFields.includes(key) || cpSize === 1) {
          d.set(key, tensorOf(arrays[i], `${lead.source}: rollout_data.${key}[${i}]`));
          continue;
        }
        const T = (lead.totalLengths as number[])[i];
        const locals = Array.from({ length: cpSize }, (_, r) => {
          const m = byRank.get(r);
          return m ? (m.columns.fields.get(key) as FloatData[])[i] : new Float32Array(0);
        });
        const full = R === 0 ? new Float32Array(0) : reassemble(cpLayout(T, R, cpSize), alike(locals));
        d.set(key, tensorOf(full, `${from}: rollout_data.${key}[${i}], rebuilt from cp_size ${cpSize} slices`));
      }
      const raw = d.get("local_raw_reward");
      const reward = d.get("rewards");
      out.push({
        shard: k,
        sampleIndex,
        localRawReward: typeof raw === "number" ? raw : null,
        reward: typeof reward === "number" ? reward : null,
        dict: d,
      });
    }
  });
  return out;
}

/** One typed-array kind for all ranks' slices (float64 where they differ), as reassemble needs. */
function alike(locals: FloatData[]): FloatData[] {
  return locals.every((x) => x instanceof Float32Array) ? locals : locals.map((x) => Float64Array.from(x));
}

function tensorOf(data: FloatData, origin: string): Tensor {
  const dtype = data instanceof Float32Array ? "float32" : "float64";
  return { kind: "tensor", dtype, storedDtype: dtype, shape: [data.length], data, origin };
}

/**
 * Rollout order: slime's default rollout sorts the batch by Sample.index, so the samples go in
 * sample_index order, each at its rank in it as rollout_position when the whole batch's raw_reward
 * agrees there with every sample's local_raw_reward (written from c1dd9ab24, 2026-08-12 on) or,
 * before, with its `rewards` (equal to the raw reward where slime does not normalise it: ppo,
 * REINFORCE++). Otherwise no positions: pairDumps then pairs the rollout dump by sample_index.
 * Without sample_index: shard by shard (the DP gather order).
 */
function rolloutOrder(
  samples: MergedSample[],
  rawReward: number[] | null,
  label: string,
  notes: string[],
): MergedSample[] {
  const indices = samples.map((s) => s.sampleIndex);
  if (indices.some((x) => x === null) || new Set(indices).size !== indices.length) {
    notes.push(
      `${label}: no unique sample_index for every sample: samples kept shard by shard (data-parallel order), rollout positions unknown`,
    );
    return samples;
  }
  const order = [...samples].sort((a, b) => (a.sampleIndex as number) - (b.sampleIndex as number));
  if (!rawReward) {
    notes.push(
      `${label}: samples in sample_index order; no raw_reward to check it against, so rollout positions unknown`,
    );
    return order;
  }
  if (order.some((s) => s.localRawReward === null)) {
    if (order.every((s, p) => s.reward !== null && Object.is(s.reward, rawReward[p]))) {
      return placed(
        order,
        `${label}: rollout positions from the samples' sample_index order (their rewards are raw_reward's, in order)`,
        notes,
      );
    }
    notes.push(
      `${label}: samples in sample_index order; no local_raw_reward to check that order against raw_reward (slime wrote it from c1dd9ab24 on), so rollout positions unknown: the rollout dump of the step, paired by sample_index, gives them`,
    );
    return order;
  }
  const off = order.findIndex((s, p) => !Object.is(s.localRawReward, rawReward[p]));
  if (off >= 0) {
    notes.push(
      `${label}: samples in sample_index order, but sample_index ${order[off].sampleIndex}'s local_raw_reward ${order[off].localRawReward} is not raw_reward[${off}] ${rawReward[off]}: a rollout that does not keep Sample.index order; rollout positions unknown: the rollout dump of the step, paired by sample_index, gives them`,
    );
    return order;
  }
  return placed(
    order,
    `${label}: rollout positions from the samples' sample_index order (checked against raw_reward)`,
    notes,
  );
}

function placed(order: MergedSample[], note: string, notes: string[]): MergedSample[] {
  order.forEach((s, p) => {
    s.dict.set("rollout_position", p);
  });
  notes.push(note);
  return order;
}
