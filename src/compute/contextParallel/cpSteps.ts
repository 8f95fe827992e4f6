import { formatSpan, spanLength } from "../../core";
import type { CpStep } from "../../io/playgroundState";
import type { CpPanelModel } from "./cpPanelModel";

// The steps' names are part of the playground's state (links name the step shown): defined there.
export { CP_STEPS, type CpStep } from "../../io/playgroundState";

export const STEP_TITLES: Record<CpStep, string> = {
  split: "Split",
  shift: "Logit shift",
  pieces: "Local pieces",
  gather: "Gather",
  scan: "Scan",
  slice: "Slice back",
};

/** The step buttons' labels: short enough for six in a row in the playground's centre column at 1024 px. */
export const STEP_SHORT: Record<CpStep, string> = {
  split: "Split",
  shift: "Shift",
  pieces: "Pieces",
  gather: "Gather",
  scan: "Scan",
  slice: "Slice",
};

/** What a step shows, in words, with this sample's numbers. */
export function stepCaption(step: CpStep, model: CpPanelModel): string {
  const { layout, inputLabel, outputLabel } = model;
  const { totalLength: T, responseLength: R, promptLength: P, cpSize: n, chunkLength: c } = layout;
  switch (step) {
    case "split":
      return (
        `The sample (${P} prompt + ${R} response tokens) is padded to ${layout.paddedLength} and cut into ${2 * n} ` +
        `chunks of ${c}. Rank r holds chunk r and chunk ${2 * n - 1} − r, so every rank gets as much of the causal ` +
        "attention work: the first chunks are cheap, the last ones dear."
      );
    case "shift":
      return (
        `Log-probs and KL are per logit, and logit j predicts token j + 1: response token 0 (position ${P}) comes ` +
        `from logit ${P - 1}, the prompt's last. The response's logits are ${P - 1}–${T - 2}, one position left ` +
        "of its tokens, so a piece's response indices are its chunk's positions minus P − 1."
      );
    case "pieces": {
      const holders = model.ranks.map((r) => `rank ${r.rank}: ${piecesText(model, r.rank)}`).join("; ");
      return `Each rank holds the ${inputLabel} of its pieces only, first chunk then second (its local order). ${holders}.`;
    }
    case "gather":
      return (
        `Every rank writes its pieces into a zero vector of length ${R} at their response offsets, and the vectors ` +
        `are summed over the CP group (an all-reduce). The pieces never overlap, so each rank now holds all ${R} ` +
        `values of the ${inputLabel}.`
      );
    case "scan":
      return (
        `Every rank runs the same chunked scan over all ${R} tokens (the playground's estimator, chunk size as set), ` +
        `redundantly: the ${outputLabel} are identical on every rank.`
      );
    case "slice":
      return `Each rank keeps the ${outputLabel} at its own response indices, in its local order; the rest is dropped.`;
  }
}

/** "8–11", or "0–2 then 3–7", or "no response token". */
export function piecesText(model: CpPanelModel, rank: number): string {
  const spans = model.layout.ranks[rank].pieces.map((p) => p.response).filter((s) => spanLength(s) > 0);
  if (spans.length === 0) return "no response token";
  return spans.map(formatSpan).join(" then ");
}
