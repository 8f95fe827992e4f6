import {
  type CpLayout,
  type CpSpan,
  cpLayout,
  formatSpan,
  ppoPlacementNote,
  ppoRewardPlacement,
  responseIndices,
} from "../core";
import { alignColumns } from "./columns";
import type { CpLayoutArgs } from "./cpLayoutArgs";

/** `scanlab cp-layout`: the layout as a table per rank, or as JSON; status 0 (bad arguments never get here). */
export function runCpLayout(args: CpLayoutArgs, stdout: (text: string) => void): number {
  const layout = cpLayout(args.totalLength, args.responseLength, args.cpSize);
  stdout(args.json ? compactJson(cpLayoutJson(layout)) : cpLayoutText(layout));
  return 0;
}

/**
 * Indented JSON with every list of numbers on one line, so a long response's indices stay readable
 * (and 2^24 of them print without a line each). Values here are numbers, strings, null and lists.
 */
export function compactJson(value: unknown, indent = ""): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "number")) return `[${value.join(", ")}]`;
    return `[\n${value.map((v) => inner + compactJson(v, inner)).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const fields = Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${compactJson(v, inner)}`);
    return `{\n${fields.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

const positions = (s: CpSpan) => formatSpan(s);

export function cpLayoutText(layout: CpLayout): string {
  const { totalLength: T, responseLength: R, promptLength: P, cpSize: n, chunkLength: c } = layout;
  const headers = ["rank", "chunk", "positions", "response logits", "response indices", "local"];
  const rows: string[][] = [];
  for (const rank of layout.ranks) {
    rank.pieces.forEach((piece, i) => {
      const local = piece.response
        ? formatSpan({ start: piece.localOffset, end: piece.localOffset + piece.response.end - piece.response.start })
        : "none";
      rows.push([
        i === 0 ? String(rank.rank) : "",
        String(piece.chunk),
        positions(piece.positions),
        formatSpan(piece.logits),
        formatSpan(piece.response),
        local,
      ]);
    });
  }
  const table = alignColumns(headers, rows);
  const held = layout.ranks.map((rank) => `rank ${rank.rank} ${rank.localLength}`).join(", ");
  const padding = layout.paddedLength - T;
  return [
    `total length ${T} = prompt ${P} + response ${R}, cp_size ${n}`,
    `${2 * n} chunks of c = ${c} positions (${padding === 0 ? "no padding" : `padded with ${padding} to ${layout.paddedLength}`}); ` +
      `the response's logits are ${P - 1}–${T - 2} (logit j predicts token j + 1)`,
    "",
    table.header,
    table.rule,
    ...table.rows,
    "",
    `response tokens held: ${held}`,
    `PPO reward placement: ${ppoRewardPlacement(layout).correct ? "" : "WARNING "}${ppoPlacementNote(layout)}`,
    "REINFORCE++ adds the reward after the gather, at the last unmasked token: not affected.",
  ].join("\n");
}

const spanJson = (s: CpSpan | null) => (s ? [s.start, s.end] : null);

export function cpLayoutJson(layout: CpLayout) {
  const placement = ppoRewardPlacement(layout);
  return {
    total_length: layout.totalLength,
    response_length: layout.responseLength,
    prompt_length: layout.promptLength,
    cp_size: layout.cpSize,
    chunk_length: layout.chunkLength,
    padded_length: layout.paddedLength,
    spans: "half-open [start, end); null when empty",
    ranks: layout.ranks.map((rank) => ({
      rank: rank.rank,
      response_indices: responseIndices(rank),
      chunks: rank.pieces.map((p) => ({
        chunk: p.chunk,
        positions: spanJson(p.positions),
        logits: spanJson(p.logits),
        response: spanJson(p.response),
        local_offset: p.localOffset,
      })),
    })),
    ppo_reward_placement: {
      last_token: placement.lastToken,
      lands_at: placement.landsAt,
      correct: placement.correct,
      note: ppoPlacementNote(layout),
    },
  };
}
