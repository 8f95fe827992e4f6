import { caseToProblem } from "../../conformance/caseProblem";
import type { ScanProblem } from "../../core";
import type { CaseFile, ScanCase } from "../../io/caseSchema";
import { stateToProblem } from "../../io/playgroundProblem";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";

/** What the player opens: the playground's state (one click from the playground), or a case of a case file. */
export type PlayerSource =
  | {
      kind: "state";
      state: PlaygroundState;
      label: string;
      /** The built-in example this state was edited from, in the player's own controls. */
      origin?: string;
      /** The batch was too large to replay whole: this is its row `row` of `rows` (the playground's row in focus). */
      focus?: { row: number; rows: number };
    }
  | { kind: "case"; file: CaseFile; fileName: string; index: number };

/** The built-in examples, sized for teaching (and one long row for the folded view). */
export const PLAYER_EXAMPLES: { id: string; label: string; state: PlaygroundState }[] = [
  {
    id: "returns",
    label: "Returns · 2 rows × 40 tokens, C = 8",
    state: {
      ...BASE_SETTINGS,
      estimator: "discounted",
      gamma: 0.9,
      chunkSize: 8,
      data: { source: "preset", preset: "dense", seed: 7, rows: 2, tokens: 40, ragged: false },
    },
  },
  {
    id: "gae",
    label: "GAE · 2 rows × 30 tokens, C = 8",
    state: {
      ...BASE_SETTINGS,
      estimator: "gae",
      gamma: 0.99,
      lambd: 0.95,
      chunkSize: 8,
      data: { source: "preset", preset: "terminal", seed: 3, rows: 2, tokens: 30, ragged: false },
    },
  },
  {
    id: "reinforce",
    label: "REINFORCE++ · 3 ragged rows ≤ 36 tokens, C = 8",
    state: {
      ...BASE_SETTINGS,
      estimator: "reinforce_pp",
      gamma: 0.99,
      klCoef: 0.05,
      chunkSize: 8,
      data: { source: "preset", preset: "multi-turn", seed: 5, rows: 3, tokens: 36, ragged: true },
    },
  },
  {
    // Chosen for the tour: four chunks of 4 (the first short, so padding shows), one row so the cells
    // are wide enough to print their numbers, and the biggest reward on the last token so the carry
    // visibly brings it into every earlier chunk whose own rewards are small.
    id: "tour",
    label: "Tour · 1 row × 14 tokens, C = 4",
    state: {
      ...BASE_SETTINGS,
      estimator: "discounted",
      gamma: 0.9,
      chunkSize: 4,
      data: {
        source: "inline",
        rows: [{ length: 14, rewards: [0, 0.5, 0, 0, -0.25, 0, 0, 0, 0.5, 0, 0, 0, 0, 1] }],
      },
    },
  },
  {
    id: "long",
    label: "Long · 2 rows × 4096 tokens, C = 16",
    state: {
      ...BASE_SETTINGS,
      estimator: "discounted",
      gamma: 0.99,
      chunkSize: 16,
      data: { source: "preset", preset: "dense", seed: 11, rows: 2, tokens: 4096, ragged: false },
    },
  },
];

export function exampleSource(id: string): PlayerSource {
  const example = PLAYER_EXAMPLES.find((e) => e.id === id) ?? PLAYER_EXAMPLES[0];
  return { kind: "state", state: example.state, label: example.label };
}

/** The cases of a file the player can replay: one scan each (no library conventions, no dumps, no expected errors). */
export function playableCases(file: CaseFile): { index: number; case: ScanCase }[] {
  return file.cases.flatMap((c, index) =>
    c.kind !== "convention" && c.kind !== "slime_dump" && c.expect_error === undefined ? [{ index, case: c }] : [],
  );
}

/** The source as the reference sees it: float64 arrays of float32 values, and a name for it. */
export function sourceProblem(source: PlayerSource): { problem: ScanProblem; label: string } {
  if (source.kind === "state") return { problem: stateToProblem(source.state, "float64"), label: source.label };
  const c = source.file.cases[source.index];
  if (!c) throw new Error(`${source.fileName} has no case ${source.index}`);
  if (c.kind === "convention") {
    throw new Error(`${c.name} is a library-convention case: it compares libraries, it is not one chunked scan`);
  }
  if (c.kind === "slime_dump") {
    throw new Error(`${c.name} is a slime dump case: a whole training step's stored values, not one chunked scan`);
  }
  return { problem: caseToProblem(c, "float64"), label: `${source.fileName} · ${c.name}` };
}

/**
 * A float32 copy for the engine: the client transfers the arrays it is given to the worker (they
 * are empty here afterwards), and the player keeps the float64 original for the reference.
 */
export function engineCopy(p: ScanProblem): ScanProblem {
  const copy = (x: { rows: number; cols: number; data: ArrayLike<number> }) => ({
    rows: x.rows,
    cols: x.cols,
    data: Float32Array.from(x.data),
  });
  switch (p.kind) {
    case "discounted":
      return { ...p, rewards: copy(p.rewards) };
    case "gae":
      return { ...p, rewards: copy(p.rewards), values: copy(p.values) };
    case "reinforce_pp":
      return {
        ...p,
        batch: {
          rewards: Array.from(p.batch.rewards),
          kl: p.batch.kl.map((row) => Float32Array.from(row)),
          lossMasks: p.batch.lossMasks.map((m) => Array.from(m)),
        },
      };
  }
}
