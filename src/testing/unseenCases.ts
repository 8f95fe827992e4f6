import type { ScanProblem } from "../core";
import { maskWithHoles, normals, seededRandom } from "../core/testRandom";
import { buildCase, buildCaseFile } from "../io/caseBuilder";
import type { CaseFile } from "../io/caseSchema";

/**
 * Case files of the golden schema that the public file does not cover: long sequences,
 * γ = 0.999, huge and tiny magnitudes, chunk size 1 and chunk size above T, ragged batches
 * with masked holes, and the fully masked error.
 */
export function unseenCaseFile(): CaseFile {
  const random = seededRandom(2026);
  const rect = (rows: number, cols: number, scale = 1) => ({ rows, cols, data: normals(random, rows * cols, scale) });
  const ragged = (lengths: number[], emptyAt = -1) => ({
    rewards: lengths.map(() => Math.fround(random() * 4 - 2)),
    kl: lengths.map((L) => normals(random, L, 0.05)),
    lossMasks: lengths.map((L, i) => maskWithHoles(random, L, i === emptyAt)),
  });
  const problems: [string, ScanProblem][] = [
    ["g0.999_B2_T8192", { kind: "discounted", rewards: rect(2, 8192), discount: 0.999, chunkSize: 128 }],
    ["long_g0.999_T20000", { kind: "discounted", rewards: rect(2, 20000), discount: 0.999, chunkSize: 128 }],
    ["g0.999_T4096_C512", { kind: "discounted", rewards: rect(3, 4096), discount: 0.999, chunkSize: 512 }],
    ["huge_1e30", { kind: "discounted", rewards: rect(2, 300, 1e30), discount: 0.99, chunkSize: 128 }],
    ["tiny_1e-30", { kind: "discounted", rewards: rect(2, 300, 1e-30), discount: 0.99, chunkSize: 128 }],
    ["chunk_1", { kind: "discounted", rewards: rect(2, 50), discount: 0.9, chunkSize: 1 }],
    ["chunk_above_T", { kind: "discounted", rewards: rect(3, 100), discount: 0.95, chunkSize: 512 }],
    ["chunk_far_above_T", { kind: "discounted", rewards: rect(2, 5), discount: 0.9, chunkSize: 30000 }],
    ["empty_T0", { kind: "discounted", rewards: rect(2, 0), discount: 0.99, chunkSize: 128 }],
    [
      "gae_chunk_1_lambda_0",
      { kind: "gae", rewards: rect(2, 40), values: rect(2, 40), gamma: 0.9, lambd: 0, chunkSize: 1 },
    ],
    [
      "gae_g0.999_T3000",
      { kind: "gae", rewards: rect(2, 3000), values: rect(2, 3000), gamma: 0.999, lambd: 0.97, chunkSize: 128 },
    ],
    [
      "rpp_ragged_16_holes",
      {
        kind: "reinforce_pp",
        batch: ragged(Array.from({ length: 16 }, () => 1 + Math.floor(random() * 2000))),
        klCoef: 0.05,
        gamma: 0.999,
        chunkSize: 128,
      },
    ],
    [
      "rpp_fully_masked",
      { kind: "reinforce_pp", batch: ragged([6, 4, 9], 1), klCoef: 0.1, gamma: 0.99, chunkSize: 128 },
    ],
  ];
  return buildCaseFile(
    problems.map(([name, problem]) => buildCase(problem, name)),
    "unseen cases",
  );
}
