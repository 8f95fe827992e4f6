import type { Lane } from "./playgroundProblem";
import type { Estimator, PlaygroundRow } from "./playgroundState";

/** An input of the batch: one of the lanes, or the rows' outcome rewards. */
export type Input = Lane | "outcome";

/** The parts of the playground that compute on the batch, each with its own inputs. */
export type Reader = "scan" | "conventions" | "contextParallel";

/**
 * What each part reads, per estimator (null: the part does not run for it). The page's scans take
 * the lanes as slime's functions do: discounted returns the rewards, GAE rewards and values,
 * REINFORCE++ the KL, the loss mask and one outcome per row. The library conventions model what a
 * trainer hands each library (KL, mask, outcome, GAE values) and form their own token rewards, so
 * they never read a rewards lane. (slime's discounted and GAE scans take no mask: there it is display only.)
 */
export const READS: Record<Estimator, Record<Reader, Input[] | null>> = {
  discounted: { scan: ["rewards"], conventions: null, contextParallel: ["rewards"] },
  gae: {
    scan: ["rewards", "values"],
    conventions: ["kl", "lossMask", "outcome", "values"],
    contextParallel: ["rewards", "values"],
  },
  reinforce_pp: {
    scan: ["kl", "lossMask", "outcome"],
    conventions: ["kl", "lossMask", "outcome"],
    contextParallel: ["kl", "lossMask", "outcome"],
  },
};

export const INPUT_NAMES: Record<Input, string> = {
  rewards: "rewards",
  values: "values",
  kl: "KL",
  lossMask: "loss mask",
  outcome: "outcome rewards",
};

/** The inputs the rows hold something in: a float lane with a value other than 0, a mask with a 0, an outcome ≠ 0. */
export function heldInputs(rows: readonly PlaygroundRow[]): Set<Input> {
  const held = new Set<Input>();
  for (const row of rows) {
    if (row.outcome !== undefined && row.outcome !== 0) held.add("outcome");
    for (const lane of ["rewards", "values", "kl"] as const) {
      if (!held.has(lane) && row[lane]?.some((v) => v !== 0)) held.add(lane);
    }
    if (!held.has("lossMask") && row.lossMask?.some((m) => m === 0)) held.add("lossMask");
  }
  return held;
}

/**
 * What a part of the page leaves unread in this batch, in a sentence (null when it reads all the
 * batch holds): either "it reads none of what the batch holds: it computes on zeros", or the lanes
 * it does not read. The loss mask of discounted returns and GAE is display only by design, not reported.
 */
export interface Unread {
  text: string;
  /** The part reads none of what the batch holds: what it shows is computed on zeros. */
  onZeros: boolean;
}

export function unreadInputs(reader: Reader, estimator: Estimator, held: ReadonlySet<Input>): Unread | null {
  const reads = READS[estimator][reader];
  if (!reads) return null;
  const unread = INPUTS.filter((input) => held.has(input) && !reads.includes(input) && input !== "lossMask");
  if (unread.length === 0) return null;
  const [who, reads_, doesNot] = WHO[reader](estimator);
  const readNames = list(reads.map((input) => INPUT_NAMES[input]));
  const unreadNames = list(unread.map((input) => INPUT_NAMES[input]));
  if (!reads.some((input) => held.has(input) && input !== "lossMask")) {
    const text = `${who} ${reads_} ${readNames}; this batch has none of them, only ${unreadNames}, so ${WHAT[reader]} computed on zeros. ${FIX[reader](estimator)}`;
    return { text, onZeros: true };
  }
  return { text: `${who} ${reads_} ${readNames}; ${doesNot} read this batch's ${unreadNames}.`, onZeros: false };
}

const ESTIMATOR_NAMES: Record<Estimator, string> = {
  discounted: "The discounted-return scan",
  gae: "GAE",
  reinforce_pp: "REINFORCE++",
};

const INPUTS: Input[] = ["rewards", "values", "kl", "lossMask", "outcome"];

/** Who reads, the verb, and its negation: one name is singular, the conventions plural. */
const WHO: Record<Reader, (estimator: Estimator) => [string, string, string]> = {
  scan: (estimator) => [ESTIMATOR_NAMES[estimator], "reads", "it does not"],
  conventions: () => ["The library conventions (as a trainer hands them their inputs)", "read", "they do not"],
  contextParallel: (estimator) => [
    `The context-parallel panel (${ESTIMATOR_NAMES[estimator].replace(/^The /, "the ")})`,
    "reads",
    "it does not",
  ],
};

const WHAT: Record<Reader, string> = {
  scan: "everything below is",
  conventions: "their outputs are",
  contextParallel: "its pieces are",
};

const FIX: Record<Reader, (estimator: Estimator) => string> = {
  scan: (estimator) =>
    estimator === "reinforce_pp"
      ? "Import the numbers as KL or as outcome rewards (Import → lane), or choose Discounted returns or GAE, which read rewards."
      : "Import the numbers into the rewards lane (Import → lane).",
  conventions: () =>
    "Import KL and outcome rewards (Import → lane) to compare the libraries; the charts above scan the rewards lane.",
  contextParallel: (estimator) =>
    estimator === "reinforce_pp" ? "Import KL or outcome rewards for this row." : "Import rewards for this row.",
};

function list(names: string[]): string {
  return names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
