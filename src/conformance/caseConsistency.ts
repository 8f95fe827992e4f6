import { POWER_ULPS } from "../core";
import type { GoldenCase, ScanCase } from "../io/caseSchema";

/**
 * What a case file says twice must agree: slime-exact replays the file's float32 power tables, so a
 * table that does not come from the case's discount (a table of zeros, a discount edited after the
 * tables were written) would let a wrong answer pass bit for bit. A GAE case's `expected.deltas`
 * (no implementation returns them, so no verdict compares them) must be the TD residuals of its own
 * inputs. Each problem names the case, the field and the index; an empty list means the file is
 * consistent.
 */
export function caseConsistencyProblems(cases: readonly GoldenCase[]): string[] {
  const problems: string[] = [];
  cases.forEach((c, index) => {
    // A slime_dump case says nothing twice: the replay reads each field once.
    if (c.kind === "slime_dump") return;
    const where = `cases[${index}] (${JSON.stringify(c.name)})`;
    if (c.kind === "gae" && c.params.discount !== undefined) {
      const product = c.params.gamma * c.params.lambd;
      if (!closeInFloat64(c.params.discount, product)) {
        problems.push(
          `${where}.params.discount: ${c.params.discount} contradicts gamma·lambd = ${c.params.gamma}·${c.params.lambd} = ${product}`,
        );
      }
    }
    if (c.kind === "gae") {
      const wrong = wrongDelta(c);
      if (wrong) problems.push(`${where}.expected.deltas${wrong}`);
    }
    const tables = c.float32_pow_tables;
    if (!tables || c.kind === "convention") return;
    const discount = scanDiscount(c);
    for (const [name, table, offset] of [
      ["M_row0", tables.M_row0, 0],
      ["pow_vec", tables.pow_vec, 1],
    ] as const) {
      const k = table.findIndex((value, i) => !powerMatches(value, discount, i + offset));
      if (k >= 0) {
        const expected = powerOf(discount, k + offset);
        problems.push(
          `${where}.float32_pow_tables.${name}[${k}]: ${table[k]} is not d^${k + offset} for the case's discount d = ${discount} (fl32(d)^${k + offset} = ${expected}, within ${POWER_ULPS} ulps)`,
        );
      }
    }
    // A patch is M[row][col] = d^(col − row) from torch's other loop: a power like the rest.
    const patch = (tables.M_patches ?? []).findIndex(([row, col, value]) => !powerMatches(value, discount, col - row));
    if (patch >= 0) {
      const [row, col, value] = (tables.M_patches ?? [])[patch];
      problems.push(
        `${where}.float32_pow_tables.M_patches[${patch}]: M[${row}][${col}] = ${value} is not d^${col - row} for the case's discount d = ${discount} (fl32(d)^${col - row} = ${powerOf(discount, col - row)}, within ${POWER_ULPS} ulps)`,
      );
    }
  });
  return problems;
}

/**
 * The first of a GAE case's `expected.deltas` that is not `(r_t + γ·V_{t+1}) − V_t` of its inputs
 * (`V_T = 0`, float64, as the reference computes it), within the float64 roundings of that formula
 * on its magnitudes; `[i]: …`, or null when all agree (or the file records none).
 */
function wrongDelta(c: Extract<ScanCase, { kind: "gae" }>): string | null {
  const deltas = c.expected?.deltas;
  if (!deltas) return null;
  const [rows, cols] = c.shape;
  const { rewards, values } = c.inputs;
  const gamma = c.params.gamma;
  for (let b = 0; b < rows; b++) {
    for (let t = 0; t < cols; t++) {
      const i = b * cols + t;
      const next = t + 1 < cols ? values[i + 1] : 0;
      const delta = rewards[i] + gamma * next - values[i];
      const magnitude = Math.abs(rewards[i]) + Math.abs(gamma * next) + Math.abs(values[i]);
      if (!(Math.abs(deltas[i] - delta) <= 4 * 2 ** -53 * magnitude + 2 ** -1074)) {
        return `[${i}] (row ${b}, token ${t}): ${deltas[i]} is not r + gamma·V_next − V = ${delta} for the case's own inputs`;
      }
    }
  }
  return null;
}

/** The discount the scan runs with: gamma·lambd for GAE (a float64 product, as slime takes it). */
export function scanDiscount(c: Exclude<ScanCase, { kind: "convention" }>): number {
  switch (c.kind) {
    case "discounted":
      return c.params.discount;
    case "gae":
      return c.params.gamma * c.params.lambd;
    case "reinforce_pp":
      return c.params.gamma;
  }
}

/** `fl32(d)^k`, correctly rounded to float32; slime's identity branch for d = 0 (0^0 = 1, else 0). */
function powerOf(discount: number, k: number): number {
  if (discount === 0) return k === 0 ? 1 : 0;
  return Math.fround(Math.fround(discount) ** k);
}

function powerMatches(value: number, discount: number, k: number): boolean {
  const expected = powerOf(discount, k);
  if (discount === 0) return value === expected;
  return Math.abs(value - expected) <= POWER_ULPS * float32Ulp(expected);
}

/** The spacing of float32 numbers at x (the subnormal step below the normal range). */
export function float32Ulp(x: number): number {
  const bits = new Float32Array([Math.abs(x)]);
  const asInteger = new Uint32Array(bits.buffer);
  const below = bits[0];
  asInteger[0] += 1;
  return bits[0] - below;
}

function closeInFloat64(a: number, b: number): boolean {
  return Math.abs(a - b) <= 4 * 2 ** -53 * Math.max(Math.abs(a), Math.abs(b));
}
