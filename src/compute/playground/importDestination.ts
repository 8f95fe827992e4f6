import { INPUT_NAMES } from "../../io/laneUse";
import type { Lane } from "../../io/playgroundProblem";
import type { Estimator, PlaygroundRow } from "../../io/playgroundState";

/** Where CSV and .npy numbers can go: one lane of every row, or one outcome reward per row. */
export type Destination = Lane | "outcome";

/** Where CSV and .npy numbers go: a new batch, or the current batch (same shape). */
export interface LaneTarget {
  /** `auto`: the lane the estimator scans, asking where that is unclear. */
  lane: Destination | "auto";
  into: "new" | "current";
  /**
   * What a CSV's first line of 0, 1, …, N − 1 is, once the user has said (a loss mask's `0,1` is
   * asked); absent: read as pandas' labels.
   */
  firstLine?: "data" | "labels";
}

/** What the page calls each lane (the editor's labels and the import notes' words). */
export const LANE_LABELS: Record<Lane, string> = {
  rewards: "reward r",
  values: "value V",
  kl: "KL",
  lossMask: "loss mask",
};

export const DESTINATION_LABELS: Record<Destination, string> = { ...LANE_LABELS, outcome: "outcome reward" };

/** The shape of what a file held, as placing it needs it. */
export interface TableShape {
  /** Rows (a 1-D array is one row). */
  rows: number;
  /** Each row's length. */
  lengths: number[];
  /** A 1-D array: one row of tokens, or one value per row. */
  oneDimensional: boolean;
}

export type DestinationChoice =
  | { destination: Destination; target: LaneTarget }
  | { question: string; choices: { label: string; target: LaneTarget }[] };

/**
 * The destination of a file's numbers. An explicit lane is taken as it is. `auto` is the lane the
 * estimator scans (rewards for discounted returns and GAE); for REINFORCE++, which reads KL and one
 * outcome per row and no rewards, a table of tokens could be KL or rewards, and a 1-D array as long
 * as the batch could be the outcomes or one row: those are asked, never guessed.
 */
export function chooseDestination(
  shape: TableShape,
  target: LaneTarget,
  estimator: Estimator,
  current: PlaygroundRow[],
): DestinationChoice {
  if (target.lane !== "auto") return { destination: target.lane, target };
  if (estimator !== "reinforce_pp") return { destination: "rewards", target: { ...target, lane: "rewards" } };
  const column = shape.oneDimensional || shape.lengths.every((n) => n === 1);
  const count = shape.oneDimensional ? shape.lengths[0] : shape.rows;
  if (column && count === current.length) {
    // A B × 1 column is no sequence of tokens: one outcome per row of the current batch.
    if (!shape.oneDimensional) return { destination: "outcome", target: { lane: "outcome", into: "current" } };
    return {
      question: `${count} values: REINFORCE++ reads one outcome reward per row, and the batch has ${count} rows. Are they`,
      choices: [
        { label: `the outcomes of the ${count} rows`, target: { lane: "outcome", into: "current" } },
        { label: `the KL of one row of ${count} tokens`, target: { ...target, lane: "kl" } },
      ],
    };
  }
  return {
    question:
      "REINFORCE++ reads the per-token KL, the loss mask and one outcome per row; it does not read rewards. Are these numbers",
    choices: [
      { label: "the KL lane", target: { ...target, lane: "kl" } },
      { label: "rewards (for discounted returns and GAE)", target: { ...target, lane: "rewards" } },
    ],
  };
}

/** What an import did, for its note: `the KL lane of the current 4 rows`. */
export function destinationText(destination: Destination, into: LaneTarget["into"], rows: PlaygroundRow[]): string {
  const batch =
    into === "current" || destination === "outcome"
      ? `the current ${plural(rows.length, "row")}`
      : `a new batch of ${batchText(rows)}`;
  return destination === "outcome"
    ? `the outcome rewards of ${batch}`
    : `the ${INPUT_NAMES[destination]} lane of ${batch}`;
}

/** `4 rows × 3000 tokens`, or `3 rows of 12–3000 tokens` when ragged. */
export function batchText(rows: PlaygroundRow[]): string {
  const lengths = rows.map((row) => row.length);
  const [min, max] = [Math.min(...lengths), Math.max(...lengths)];
  return min === max
    ? `${plural(rows.length, "row")} × ${plural(max, "token")}`
    : `${plural(rows.length, "row")} of ${min}–${max} tokens`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
