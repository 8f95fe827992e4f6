import { DEFAULT_CHUNK_SIZE } from "../core";
import { buildCase, buildCaseFile } from "./caseBuilder";
import type { CaseFile, ScanCase } from "./caseSchema";
import { firstNonFinite, nonFiniteOutputMessage } from "./finiteJson";
import { describeThrown, failure, IoError, type IoResult, success } from "./ioError";
import { describeNonFinite, findNonFinite } from "./nonFinite";
import { materializeRows, paddingStats, stateToProblem } from "./playgroundProblem";
import type { PlaygroundRow, PlaygroundState } from "./playgroundState";

/**
 * The playground's inputs and settings as a golden-schema case file (cases/SCHEMA.md), so
 * `npx scanlab check exported.json` verifies them: `expected` is core's float64 serial reference,
 * `chunked_float32` the float32 chunked scan with torch's CPU float32 powers (`float32_pow_tables`,
 * so `--mode slime-exact` replays it bit for bit; REINFORCE++ in chunks of 128, as slime runs it), and no `tolerance`, so the checker applies its
 * own uniform bound. Discounted and GAE batches are written as slime scans them: ragged rows
 * right-padded with zeros to `[B, max length]`. Inputs are float32 values, as the schema requires.
 * Inputs the reference rejects (a fully masked REINFORCE++ row) become an `expect_error` case.
 */
export interface CaseExport {
  file: CaseFile & { cases: ScanCase[] };
  /** The file's JSON text. */
  text: string;
  /** A file name for the download, e.g. `playground_gae_B4_T300.json`. */
  fileName: string;
}

/** The NaN and ±Inf of every lane and outcome, named by row and token, or null when all are finite. */
function nonFiniteLanes(rows: PlaygroundRow[]): string | null {
  const parts: string[] = [];
  for (const lane of ["rewards", "values", "kl"] as const) {
    const cells = findNonFinite(rows.map((row) => row[lane] ?? []));
    if (cells.length > 0) parts.push(describeNonFinite(cells, lane));
  }
  const outcomes = findNonFinite([rows.map((row) => row.outcome ?? 0)]);
  if (outcomes.length > 0) parts.push(`outcome: ${outcomes.map((c) => `${c.value} at row ${c.token}`).join("; ")}`);
  return parts.length > 0 ? parts.join("; ") : null;
}

export function exportCase(state: PlaygroundState, name?: string): IoResult<CaseExport> {
  try {
    const rows = materializeRows(state);
    const nonFinite = nonFiniteLanes(rows);
    if (nonFinite) {
      // JSON has no NaN or ±Inf (they would be written as null) and the golden schema takes finite inputs only.
      return failure(new IoError("", `cannot hold non-finite inputs (${nonFinite})`, "Case export"));
    }
    const { maxLength, paddingShare } = paddingStats(rows);
    const caseName = name ?? `playground_${state.estimator}_B${rows.length}_T${maxLength}`;
    const problem = stateToProblem(state, "float64", rows);
    const c = buildCase(
      problem,
      caseName,
      caseNote(
        state,
        rows.map((r) => r.length),
        paddingShare,
      ),
    );
    const file = buildCaseFile([c], "exported from the Scanlab playground");
    const overflow = firstNonFinite(file);
    if (overflow) return failure(new IoError("", nonFiniteOutputMessage(overflow), "Case export"));
    return success({ file, text: `${JSON.stringify(file)}\n`, fileName: `${safeFileName(caseName)}.json` });
  } catch (thrown) {
    return failure(new IoError("", `could not be written (${describeThrown(thrown)})`, "Case export"));
  }
}

/** The case's `note`: where the data came from, and the lengths that padding hides in a rectangular case. */
function caseNote(state: PlaygroundState, lengths: number[], paddingShare: number): string {
  const { data } = state;
  const origin =
    data.source === "preset"
      ? `preset ${data.preset}, seed ${data.seed}${data.ragged ? ", ragged" : ""} (Scanlab's generator, not numpy)`
      : "rows drawn or imported in the playground";
  const ragged =
    state.estimator !== "reinforce_pp" && paddingShare > 0
      ? `; row lengths ${lengths.join(",")} right-padded with zeros to ${Math.max(...lengths)}`
      : "";
  const chunk =
    state.estimator === "reinforce_pp" && state.chunkSize !== DEFAULT_CHUNK_SIZE
      ? `; scanned in chunks of ${DEFAULT_CHUNK_SIZE} as slime's REINFORCE++ always is (the playground's C = ${state.chunkSize} is not used)`
      : "";
  return `Exported from the Scanlab playground: ${origin}${ragged}${chunk}; float32 powers: torch's CPU kernel (emulated).`;
}

function safeFileName(name: string): string {
  return name.replace(/[^\w.-]+/g, "_").slice(0, 100) || "playground";
}
