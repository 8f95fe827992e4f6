import {
  type Estimator,
  MAX_CELLS,
  MAX_ROWS,
  MAX_TOKENS,
  type PlaygroundRow,
  type PlaygroundState,
} from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import type { PlainLanes } from "../../io/slimeDump";

/**
 * The lanes of a file saved by hand (`torch.save({...})`, `.npz`, safetensors) as a playground batch:
 * such a file has no stored advantages to replay, but its rewards, values, KL and masks can be scanned.
 * The estimator is the one those lanes feed: values → GAE, rewards → discounted returns, KL alone →
 * REINFORCE++ (outcome 0). Rows are as the file has them; `lengths` (when the file gives it) cuts
 * each row's padding.
 */
export function plainToPlayground(lanes: PlainLanes): PlaygroundState | string {
  const estimator: Estimator | null =
    lanes.rewards && lanes.values ? "gae" : lanes.rewards ? "discounted" : lanes.kl ? "reinforce_pp" : null;
  if (estimator === null) return "the file has no rewards or KL lane for the playground to scan";
  const lanesOfRow = [lanes.rewards, lanes.values, lanes.kl, lanes.lossMask].filter(
    (l): l is Float64Array[] => l !== undefined,
  );
  const count = Math.max(...lanesOfRow.map((l) => l.length));
  if (count > MAX_ROWS) return `its ${count} rows are more than the playground takes (${MAX_ROWS})`;
  const rows: PlaygroundRow[] = [];
  for (let b = 0; b < count; b++) {
    const widths = lanesOfRow.map((l) => l[b]?.length ?? Number.POSITIVE_INFINITY);
    const width = Math.min(...widths, lanes.lengths?.[b] ?? Number.POSITIVE_INFINITY);
    const length = Number.isFinite(width) ? Math.max(0, Math.floor(width)) : 0;
    if (length > MAX_TOKENS) return `row ${b} has ${length} tokens, more than the playground takes (${MAX_TOKENS})`;
    const lane = (rowsOfLane: Float64Array[] | undefined) =>
      rowsOfLane?.[b] ? Array.from(rowsOfLane[b].subarray(0, length), Math.fround) : undefined;
    const row: PlaygroundRow = { length };
    const rewards = lane(lanes.rewards);
    const values = lane(lanes.values);
    const kl = lane(lanes.kl);
    if (rewards) row.rewards = rewards;
    if (values) row.values = values;
    if (kl) row.kl = kl;
    if (lanes.lossMask?.[b])
      row.lossMask = Array.from(lanes.lossMask[b].subarray(0, length), (m) => (m === 0 ? 0 : 1) as 0 | 1);
    if (estimator === "reinforce_pp") row.outcome = 0;
    rows.push(row);
  }
  const longest = rows.reduce((max, r) => Math.max(max, r.length), 0);
  if (longest === 0) return "its rows have no tokens";
  if (rows.length * longest > MAX_CELLS)
    return `${rows.length} rows × ${longest} tokens is more than the playground takes (${MAX_CELLS} cells)`;
  return { ...BASE_SETTINGS, estimator, data: { source: "inline", rows } };
}
