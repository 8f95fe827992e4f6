import { base64ToBytes, base64ToFloat32, bytesToBase64, float32ToBase64 } from "./float32Base64";
import type { DumpComparison, PlaygroundRow } from "./playgroundState";

/**
 * How inline rows travel in a link. lz-string is slow (about a million characters a second) and
 * gains nothing on varied floats, so only the small JSON goes through it:
 * - a lane with long runs of equal values (zeros, a constant, a drawn plateau, any loss mask) is
 *   written in the JSON as `{"runs": [value, count, value, count, …]}`;
 * - any other lane travels beside the JSON as a raw base64url part, referred to as `"@k"` (part k):
 *   little-endian float32 for float lanes, bits (least significant first) for a loss mask.
 * Decoding also accepts a lane as a plain array of numbers or a base64 float32 string (scripts).
 */
const FLOAT_LANES = ["rewards", "values", "kl"] as const;
const LANES = [...FLOAT_LANES, "lossMask"] as const;

export function rowToWire(row: PlaygroundRow, parts: string[]): Record<string, unknown> {
  const wire: Record<string, unknown> = { length: row.length };
  for (const lane of LANES) {
    const values = row[lane];
    if (!values) continue;
    const runs = runsOf(values, values.length / 2);
    if (runs) {
      wire[lane] = { runs };
    } else {
      parts.push(lane === "lossMask" ? bytesToBase64(packBits(values), "url") : float32ToBase64(values, "url"));
      wire[lane] = `@${parts.length - 1}`;
    }
  }
  if (row.outcome !== undefined) wire.outcome = row.outcome;
  return wire;
}

/**
 * The dump comparison's stored advantages and returns (playgroundState.ts, DumpComparison), packed as
 * a row's float lanes are: a few thousand varied floats would cost lz-string a second.
 */
export function dumpToWire(dump: DumpComparison, parts: string[]): Record<string, unknown> {
  const wire: Record<string, unknown> = { ...dump };
  for (const lane of DUMP_LANES) {
    const runs = runsOf(dump[lane], dump[lane].length / 2);
    if (runs) wire[lane] = { runs };
    else {
      parts.push(float32ToBase64(dump[lane], "url"));
      wire[lane] = `@${parts.length - 1}`;
    }
  }
  return wire;
}

const DUMP_LANES = ["advantages", "returns"] as const;

/**
 * `[value, count, …]` of the float32 values, or null once that takes more than `limit` numbers or
 * meets NaN or ±Inf: JSON has no word for them (they would come back as null), the float32 part keeps them.
 */
function runsOf(values: number[], limit: number): number[] | null {
  const runs: number[] = [];
  for (let i = 0; i < values.length; ) {
    if (runs.length + 2 > limit) return null;
    const value = Math.fround(values[i]);
    if (!Number.isFinite(value)) return null;
    let j = i + 1;
    while (j < values.length && Math.fround(values[j]) === value) j++;
    runs.push(value, j - i);
    i = j;
  }
  return runs;
}

/** A 0/1 mask packed 8 tokens a byte, least significant bit first (numpy: `packbits(m, bitorder="little")`). */
export function packBits(mask: number[]): Uint8Array {
  const bytes = new Uint8Array(Math.ceil(mask.length / 8));
  mask.forEach((m, t) => {
    if (m) bytes[t >> 3] |= 1 << (t & 7);
  });
  return bytes;
}

export interface LaneProblem {
  field: string;
  detail: string;
  /** The lanes hold more numbers than the budget: the text may be fine, just too big to unpack here. */
  overBudget?: true;
}

/**
 * Replaces packed lanes of a decoded wire state by number arrays, in place, counting the numbers
 * against `maxNumbers` before making them; returns the first problem found. Plain arrays are left
 * for the schema to check.
 */
export function unpackLanes(
  state: Record<string, unknown>,
  parts: string[],
  maxNumbers: number,
): LaneProblem | undefined {
  const budget = { left: maxNumbers, max: maxNumbers };
  const dump = state.dump as Record<string, unknown> | undefined;
  if (dump && typeof dump === "object") {
    for (const lane of DUMP_LANES) {
      const packed = dump[lane];
      if (packed === undefined || Array.isArray(packed)) continue;
      const unpacked = unpackLane(packed, false, parts, budget, undefined);
      if (typeof unpacked === "string")
        return { field: `dump.${lane}`, detail: unpacked, ...(budget.left < 0 ? { overBudget: true } : {}) };
      dump[lane] = unpacked;
    }
  }
  const data = state.data as { source?: unknown; rows?: unknown } | undefined;
  if (data?.source !== "inline" || !Array.isArray(data.rows)) return undefined;
  for (const [i, row] of data.rows.entries()) {
    if (!row || typeof row !== "object") continue;
    const lanes = row as Record<string, unknown>;
    for (const lane of LANES) {
      const packed = lanes[lane];
      if (packed === undefined || Array.isArray(packed)) continue;
      const field = `data.rows[${i}].${lane}`;
      const unpacked = unpackLane(packed, lane === "lossMask", parts, budget, lanes.length);
      if (typeof unpacked === "string")
        return { field, detail: unpacked, ...(budget.left < 0 ? { overBudget: true } : {}) };
      lanes[lane] = unpacked;
    }
  }
  return undefined;
}

function unpackLane(
  packed: unknown,
  isMask: boolean,
  parts: string[],
  budget: { left: number; max: number },
  length: unknown,
): number[] | string {
  const spend = (n: number) => {
    budget.left -= n;
    return budget.left < 0;
  };
  const over = `the link holds more than ${budget.max} numbers`;
  if (packed && typeof packed === "object" && "runs" in packed) {
    const runs = (packed as { runs: unknown }).runs;
    if (!Array.isArray(runs) || runs.length % 2 !== 0) return "runs: expected a list of value, count pairs";
    for (let k = 0; k < runs.length; k += 2) {
      const [value, count] = [runs[k], runs[k + 1]];
      if (typeof value !== "number") return `runs[${k}]: expected a number, got ${JSON.stringify(value)}`;
      if (!Number.isInteger(count) || (count as number) < 1) return `runs[${k + 1}]: expected a count ≥ 1`;
      if (spend(count as number)) return over;
    }
    const out: number[] = [];
    for (let k = 0; k < runs.length; k += 2) for (let n = 0; n < runs[k + 1]; n++) out.push(runs[k]);
    return out;
  }
  if (typeof packed !== "string") return "expected a list of numbers, runs or packed data";
  if (packed.startsWith("@")) {
    const k = /^@\d{1,7}$/.test(packed) ? Number(packed.slice(1)) : -1;
    const part = parts[k];
    if (part === undefined) return `refers to part ${JSON.stringify(packed)}, but the link has ${parts.length} parts`;
    if (isMask) {
      if (!Number.isInteger(length) || (length as number) < 0) return "a packed mask needs the row's length";
      const n = length as number;
      if (spend(n)) return over;
      const bytes = base64ToBytes(part, "url");
      if (typeof bytes === "string") return `part ${k} ${bytes}`;
      if (bytes.length !== Math.ceil(n / 8)) return `part ${k} holds ${bytes.length * 8} mask bits for ${n} tokens`;
      return Array.from({ length: n }, (_, t) => (bytes[t >> 3] >> (t & 7)) & 1);
    }
    if (spend(Math.floor((part.length * 3) / 16))) return over;
    const floats = base64ToFloat32(part, "url");
    return typeof floats === "string" ? `part ${k} ${floats}` : Array.from(floats);
  }
  if (isMask) {
    const at = packed.search(/[^01]/);
    if (at >= 0) return `character ${at}: expected 0 or 1, got ${JSON.stringify(packed[at])}`;
    if (spend(packed.length)) return over;
    return Array.from(packed, Number);
  }
  if (spend(Math.floor((packed.length * 3) / 16))) return over;
  const floats = base64ToFloat32(packed);
  return typeof floats === "string" ? floats : Array.from(floats);
}
