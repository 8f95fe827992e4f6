import { MAX_ELEMENTS, MAX_TOKENS, type Problem } from "./caseLimits";
import type { SlimeDumpCase } from "./caseSchema";
import { countText } from "./countText";

/**
 * A slime_dump case's sizes: the limits of every case (caseLimits; its row count is capped by the
 * schema), then one stored entry per sample and every per-token array as long as the sample's loss
 * mask, so that the replay never reads past a row or pairs a value with another token's.
 */
export function slimeDumpShapeProblems(c: SlimeDumpCase): Problem[] {
  const lengths = c.samples.map((s) => s.loss_mask.length);
  const longest = lengths.reduce((best, L, i) => (L > lengths[best] ? i : best), 0);
  const tokens = lengths[longest] ?? 0;
  if (tokens > MAX_TOKENS) {
    return [
      {
        path: ["samples", longest, "loss_mask"],
        message: `${countText(tokens)} tokens in a sample is above the limit of ${countText(MAX_TOKENS)}`,
      },
    ];
  }
  if (lengths.length * tokens > MAX_ELEMENTS) {
    const message = `${countText(lengths.length)} samples padded to ${countText(tokens)} tokens = ${countText(lengths.length * tokens)} elements is above the limit of ${countText(MAX_ELEMENTS)}`;
    return [{ path: ["samples"], message }];
  }
  const problems: Problem[] = [];
  if (c.stored.length !== c.samples.length) {
    problems.push({
      path: ["stored"],
      message: `expected ${c.samples.length} entries (one per sample), got ${c.stored.length}`,
    });
  }
  const expectLength = (values: number[] | undefined, i: number, path: (string | number)[]) => {
    if (values && values.length !== lengths[i]) {
      problems.push({
        path,
        message: `expected ${lengths[i]} numbers (samples[${i}].loss_mask has ${lengths[i]}), got ${values.length}`,
      });
    }
  };
  c.samples.forEach((s, i) => {
    for (const field of ["log_probs", "ref_log_probs", "rollout_log_probs", "kl", "values"] as const) {
      expectLength(s[field], i, ["samples", i, field]);
    }
    const stored = c.stored[i];
    if (!stored) return;
    for (const field of ["advantages", "returns", "kl"] as const) expectLength(stored[field], i, ["stored", i, field]);
  });
  return problems;
}
