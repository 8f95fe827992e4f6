import { type ScanOutputs, solve } from "../core";
import { float32Text, numberText } from "./float32Text";
import { describeThrown, failure, IoError, type IoResult, success } from "./ioError";
import { laneOf, stateToProblem } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";

/** Output name → padded `[rows, cols]` row-major table (zeros past each row's length). */
export type OutputColumns = Partial<Record<string, ArrayLike<number>>>;

/**
 * The results of a run, as the page holds them (its PlaygroundResult fits): the float64 serial
 * reference, the chunked side that ran, and optionally the float32 serial loop.
 */
export interface CsvResults {
  cols: number;
  reference: OutputColumns;
  chunked: OutputColumns;
  serial32?: OutputColumns;
}

/**
 * Inputs and results as one CSV in long form, one line per valid token (padding left out), ready
 * for pandas or a spreadsheet:
 * `row, token, chunk, loss_mask, <inputs>, then per output: <out>_serial_f64, <out>_chunked,
 * <out>_abs_err, <out>_rel_err, <out>_serial_f32, <out>_serial_f32_abs_err`.
 * `chunk` is the chunk index in slime's reversed order over the padded length (chunk 0 holds the
 * last C tokens). Errors are against the float64 serial reference; rel_err is |err| / |reference|
 * (inf where the reference is 0 and the error is not). Without `results`, core computes them: the
 * chunked side is then core's float32 emulation of slime's scan.
 */
export function exportCsv(
  state: PlaygroundState,
  rows: PlaygroundRow[],
  results?: CsvResults,
): IoResult<{ text: string; fileName: string }> {
  try {
    const tables = results ?? coreResults(state, rows);
    const names = Object.keys(tables.reference).filter((name) => tables.reference[name] && tables.chunked[name]);
    const inputs = inputColumns(state.estimator);
    const header = ["row", "token", "chunk", "loss_mask", ...inputs.map((c) => c.name)];
    for (const name of names) {
      header.push(`${name}_serial_f64`, `${name}_chunked`, `${name}_abs_err`, `${name}_rel_err`);
      if (tables.serial32?.[name]) header.push(`${name}_serial_f32`, `${name}_serial_f32_abs_err`);
    }
    const lines = [header.join(",")];
    const { cols } = tables;
    rows.forEach((row, b) => {
      const mask = laneOf(row, "lossMask");
      const lanes = inputs.map((c) => c.values(row));
      for (let t = 0; t < row.length; t++) {
        const cells = [String(b), String(t), String(Math.floor((cols - 1 - t) / state.chunkSize)), String(mask[t])];
        for (const lane of lanes) cells.push(float32Text(lane[t]));
        const i = b * cols + t;
        for (const name of names) {
          const ref = (tables.reference[name] as ArrayLike<number>)[i];
          const chunked = (tables.chunked[name] as ArrayLike<number>)[i];
          const err = absError(chunked, ref);
          cells.push(numberText(ref), numberText(chunked), numberText(err), numberText(relative(err, ref)));
          const serial32 = tables.serial32?.[name];
          if (serial32) cells.push(numberText(serial32[i]), numberText(absError(serial32[i], ref)));
        }
        lines.push(cells.join(","));
      }
    });
    const fileName = `playground_${state.estimator}_B${rows.length}_T${cols}.csv`;
    return success({ text: `${lines.join("\n")}\n`, fileName });
  } catch (thrown) {
    return failure(new IoError("", `could not be written (${describeThrown(thrown)})`, "CSV export"));
  }
}

interface InputColumn {
  name: string;
  values(row: PlaygroundRow): ArrayLike<number>;
}

function inputColumns(estimator: PlaygroundState["estimator"]): InputColumn[] {
  const lane = (name: string, key: "rewards" | "values" | "kl"): InputColumn => ({
    name,
    values: (row) => laneOf(row, key),
  });
  if (estimator === "discounted") return [lane("reward", "rewards")];
  if (estimator === "gae") return [lane("reward", "rewards"), lane("value", "values")];
  return [lane("kl", "kl"), { name: "outcome", values: (row) => new Array(row.length).fill(row.outcome ?? 0) }];
}

/** |a − b|, and 0 where both are the same infinity (inf − inf is NaN, but the two scans agree there). */
function absError(a: number, b: number): number {
  return a === b ? 0 : Math.abs(a - b);
}

function relative(err: number, ref: number): number {
  if (err === 0) return 0;
  return ref === 0 ? Number.POSITIVE_INFINITY : err / Math.abs(ref);
}

/** The three scans the page shows, run by core, as padded tables. */
function coreResults(state: PlaygroundState, rows: PlaygroundRow[]): CsvResults {
  const cols = rows.reduce((max, row) => Math.max(max, row.length), 0);
  const p64 = stateToProblem(state, "float64", rows);
  const p32 = stateToProblem(state, "float32", rows);
  const table = (outputs: ScanOutputs) => padded(outputs, rows.length, cols);
  return {
    cols,
    reference: table(solve(p64, "serial").outputs),
    chunked: table(solve(p32, "chunked").outputs),
    serial32: table(solve(p32, "serial").outputs),
  };
}

function padded(outputs: ScanOutputs, rows: number, cols: number): OutputColumns {
  if (outputs.kind === "discounted") return { returns: outputs.returns };
  if (outputs.kind === "gae") return { advantages: outputs.advantages, returns: outputs.returns };
  const pad = (ragged: ArrayLike<number>[]) => {
    const out = new Float64Array(rows * cols);
    ragged.forEach((row, b) => {
      out.set(row, b * cols);
    });
    return out;
  };
  return { returns: pad(outputs.returns), token_level_rewards: pad(outputs.tokenLevelRewards) };
}
