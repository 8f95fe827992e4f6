import { parseCaseFile } from "./caseFile";
import type { CaseFile, ConventionCase, GoldenCase, ScanCase } from "./caseSchema";
import { describeThrown, failure, IoError, type IoResult, MAX_IMPORT_BYTES, success } from "./ioError";
import { type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "./playgroundState";

/**
 * A case file (cases/SCHEMA.md) opened in the playground: the list of its cases, and any one of
 * them as a playground state. Discounted, GAE and REINFORCE++ cases open as they are; a
 * library-convention case opens its inputs as slime's estimator would take them, with a note
 * saying what the playground does not reproduce (the library's own masking and whitening).
 */
export interface CaseEntry {
  index: number;
  name: string;
  kind: GoldenCase["kind"];
  /** `3x129`, or `B=4` for a ragged batch. */
  shape: string;
  /** The reference's exception when the case expects one ("AssertionError: …"). */
  expectError?: string;
}

export interface CaseImport {
  file: CaseFile;
  cases: CaseEntry[];
}

/** Reads and validates a case file (text or bytes); never throws. */
export function importCaseFile(input: string | Uint8Array, source = "case file"): IoResult<CaseImport> {
  if (input.length > MAX_IMPORT_BYTES) {
    return failure(new IoError("", `is larger than the import limit of ${MAX_IMPORT_BYTES / 2 ** 20} MiB`, source));
  }
  let file: CaseFile;
  try {
    file = parseCaseFile(input, source);
  } catch (thrown) {
    // parseCaseFile's message already starts with the source.
    return failure(new IoError("", describeThrown(thrown)));
  }
  if (file.cases.length === 0) return failure(new IoError("", "holds no cases", source));
  const cases = file.cases.map((c, index): CaseEntry => {
    if (c.kind === "slime_dump") return { index, name: c.name, kind: c.kind, shape: `B=${c.samples.length}` };
    const shape = c.kind === "discounted" || c.kind === "gae" ? `${c.shape[0]}x${c.shape[1]}` : `B=${c.lengths.length}`;
    return { index, name: c.name, kind: c.kind, shape, ...(c.expect_error ? { expectError: c.expect_error } : {}) };
  });
  return success({ file, cases });
}

/**
 * Case `index` of a file as a playground state; the view settings (precision, backend, strategy,
 * error metric) are kept from `current`. The case itself comes back too, so the page can show its
 * tolerance (conformance's caseTolerance) beside the result.
 */
export function openCase(
  imported: CaseImport,
  index: number,
  current: PlaygroundState,
  source = "case file",
): IoResult<{ state: PlaygroundState; case: ScanCase }> {
  const c = imported.file.cases[index];
  if (!c) return failure(new IoError("", `has no case ${index} (it has ${imported.file.cases.length})`, source));
  const where = `cases[${index}] (${JSON.stringify(c.name)})`;
  if (c.kind === "slime_dump") {
    // Its values under test are a training step's stored outputs, which no playground run makes.
    const detail = "is a slime dump case (a training step's stored values): check it with npx scanlab check";
    return failure(new IoError(where, detail, source));
  }
  try {
    const { settings, rows, notes } = caseSettings(c);
    const candidate = { ...current, ...settings, selectedRow: 0, data: { source: "inline", rows } };
    const parsed = parsePlaygroundState(candidate);
    if (!parsed.ok) {
      const detail = `cannot be opened in the playground: ${parsed.error.message}`;
      return failure(new IoError(where, detail, source));
    }
    if (c.expect_error) notes.push(`${c.name}: slime raises "${c.expect_error}" on these inputs; so should the run`);
    return success({ state: parsed.state, case: c }, notes);
  } catch (thrown) {
    return failure(new IoError(where, `cannot be opened (${describeThrown(thrown)})`, source));
  }
}

interface Opened {
  settings: Partial<PlaygroundState>;
  rows: PlaygroundRow[];
  notes: string[];
}

function caseSettings(c: ScanCase): Opened {
  switch (c.kind) {
    case "discounted": {
      const { discount, chunk_size } = c.params;
      const rows = splitRows(c.inputs.rewards, c.shape).map((rewards) => ({ length: rewards.length, rewards }));
      return { settings: { estimator: "discounted", gamma: discount, chunkSize: chunk_size }, rows, notes: [] };
    }
    case "gae": {
      const { gamma, lambd, chunk_size } = c.params;
      const values = splitRows(c.inputs.values, c.shape);
      const rows = splitRows(c.inputs.rewards, c.shape).map((rewards, b) => ({
        length: rewards.length,
        rewards,
        values: values[b],
      }));
      return {
        settings: { estimator: "gae", gamma, lambd, chunkSize: chunk_size, output: "advantages" },
        rows,
        notes: [],
      };
    }
    case "reinforce_pp": {
      const { kl_coef, gamma, chunk_size } = c.params;
      const rows = c.inputs.kl.map((kl, b) => ({
        length: kl.length,
        kl,
        lossMask: c.inputs.loss_masks[b],
        outcome: c.inputs.rewards[b],
      }));
      return {
        settings: { estimator: "reinforce_pp", gamma, klCoef: kl_coef, chunkSize: chunk_size },
        rows,
        notes: [],
      };
    }
    case "convention":
      return conventionSettings(c);
  }
}

/**
 * A convention case's inputs as slime takes them: REINFORCE++ as is; GAE with slime's PPO token
 * rewards (−kl_coef·kl, unmasked, plus the outcome on the reward index or the last token).
 */
function conventionSettings(c: ConventionCase): Opened {
  const { gamma, lambd, kl_coef } = c.params;
  const note = `${c.name}: a library-convention case (${c.library}), opened as slime's ${c.estimator === "gae" ? "GAE" : "REINFORCE++"} (chunk size 128); the library's own masking${c.params.normalize ? ", whitening" : ""} and reward placement are not reproduced here (scanlab check runs them)`;
  if (c.estimator === "reinforce_pp") {
    const rows = c.inputs.kl.map((kl, b) => ({
      length: kl.length,
      kl,
      lossMask: c.inputs.loss_masks[b],
      outcome: c.inputs.rewards[b],
    }));
    return { settings: { estimator: "reinforce_pp", gamma, klCoef: kl_coef, chunkSize: 128 }, rows, notes: [note] };
  }
  const rows = c.inputs.kl.map((kl, b) => {
    const rewards = kl.map((k) => Math.fround(-kl_coef * k));
    const at = c.reward_index?.[b] ?? kl.length - 1;
    if (at >= 0 && at < rewards.length) rewards[at] = Math.fround(rewards[at] + c.inputs.rewards[b]);
    const values = c.inputs.values?.[b];
    return { length: kl.length, rewards, lossMask: c.inputs.loss_masks[b], ...(values ? { values } : {}) };
  });
  return { settings: { estimator: "gae", gamma, lambd: lambd ?? 1, chunkSize: 128 }, rows, notes: [note] };
}

function splitRows(flat: number[], [B, T]: [number, number]): number[][] {
  return Array.from({ length: B }, (_, b) => flat.slice(b * T, (b + 1) * T));
}
