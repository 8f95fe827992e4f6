import fc from "fast-check";
import { buildCase, buildCaseFile } from "../io/caseBuilder";

/**
 * Test support for fuzzing case files: a small valid file written by the case builder, and random
 * mutations of its JSON tree with the values a hostile file would hold.
 */

/** A small valid file, one case of each scan kind, written by the case builder. */
export function smallValidFile() {
  const data = Float64Array.of(1, -2, 3, 0.5, 4, -1);
  return buildCaseFile([
    buildCase({ kind: "discounted", rewards: { rows: 2, cols: 3, data }, discount: 0.9, chunkSize: 2 }, "disc"),
    buildCase(
      {
        kind: "gae",
        rewards: { rows: 1, cols: 3, data: data.slice(0, 3) },
        values: { rows: 1, cols: 3, data: data.slice(3) },
        gamma: 0.99,
        lambd: 0.95,
        chunkSize: 2,
      },
      "gae",
    ),
    buildCase(
      {
        kind: "reinforce_pp",
        batch: { rewards: [1, -1], kl: [Float64Array.of(0.1, 0.2), Float64Array.of(0.3)], lossMasks: [[1, 0], [1]] },
        klCoef: 0.05,
        gamma: 1,
        chunkSize: 128,
      },
      "rpp",
    ),
  ]);
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = (string | number)[];

/** Every place in a JSON tree, the root included. */
export function pathsOf(node: Json, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(node)) {
    node.forEach((child, i) => {
      pathsOf(child, [...path, i], out);
    });
  } else if (node && typeof node === "object")
    for (const [k, child] of Object.entries(node)) pathsOf(child, [...path, k], out);
  return out;
}

/** Values a hostile file would put anywhere: wrong types, huge and tiny numbers, big arrays. */
const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  fc.constantFrom<Json>(0, -1, 1e12, 2 ** 31, 2 ** 20, 1e308, -1e308, 3.5e38, 1e-320, 0.5, "", "x", null, [], {}),
  fc.integer({ min: 0, max: 5_000 }).map((n) => new Array(n).fill(0)),
);

type Mutation =
  | { op: "set"; at: number; value: Json }
  | { op: "delete"; at: number }
  | { op: "add"; at: number; key: string; value: Json };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("set" as const), at: fc.nat(), value: hostileValue }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("add" as const), at: fc.nat(), key: fc.string({ maxLength: 8 }), value: hostileValue }),
);

export function mutate(root: Json, m: Mutation): Json {
  const paths = pathsOf(root);
  const path = paths[m.at % paths.length];
  if (path.length === 0) return m.op === "set" ? m.value : root;
  const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as Record<string, Json>)[key], root) as
    | Json[]
    | Record<string, Json>;
  const key = path[path.length - 1];
  if (m.op === "set") (parent as Record<string, Json>)[key] = m.value;
  else if (m.op === "delete") {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
  } else {
    const target = (parent as Record<string, Json>)[key];
    if (target && typeof target === "object" && !Array.isArray(target)) target[m.key] = m.value;
  }
  return root;
}
