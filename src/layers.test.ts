/**
 * The layers' rules hold by construction: biome.json's import rules (`npm run lint`) refuse an
 * upward import and let the allowed ones through, tsconfig.lower.json (`npm run typecheck`)
 * compiles core, names, io and conformance without the DOM, and tsconfig.compute.json compiles
 * compute (the page's workers and what they compute) with the worker's library, not the DOM's. Each is run on probe files in a folder
 * of their own, under the project's own configuration.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const biome = require.resolve("@biomejs/biome/bin/biome");
// typescript exports no bin path; its package.json names it.
const tsc = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");

/** Each probe: a file under src/ and the one import it makes; `refused` says whether the rules must refuse it. */
const PROBES: { file: string; from: string; refused: boolean }[] = [
  { file: "src/io/upward.ts", from: "../engine/strategy", refused: true },
  { file: "src/io/slimeDump/upward.ts", from: "../../engine/client", refused: true },
  { file: "src/io/names.ts", from: "../names/backends", refused: false },
  { file: "src/io/ui.ts", from: "../ui/App", refused: true },
  { file: "src/core/upward.ts", from: "../io/caseSchema", refused: true },
  { file: "src/core/names.ts", from: "../names/strategies", refused: true },
  { file: "src/core/react.ts", from: "react", refused: true },
  { file: "src/core/sibling.ts", from: "./serialScan", refused: false },
  { file: "src/names/upward.ts", from: "../io/caseSchema", refused: true },
  { file: "src/names/core.ts", from: "../core", refused: false },
  { file: "src/conformance/upward.ts", from: "../engine/client", refused: true },
  { file: "src/conformance/io.ts", from: "../io/caseSchema", refused: false },
  { file: "src/engine/upward.ts", from: "../ui/App", refused: true },
  { file: "src/engine/conformance.ts", from: "../conformance", refused: false },
  { file: "src/engine/kit.ts", from: "../testing/engineTestKit", refused: true },
  { file: "src/engine/kit.test.ts", from: "../testing/engineTestKit", refused: false },
  { file: "src/io/checker.test.ts", from: "../conformance", refused: false },
  { file: "src/io/engine.test.ts", from: "../engine/runProblem", refused: true },
  { file: "src/ui/player/internals.ts", from: "../../engine/runProblem", refused: true },
  { file: "src/ui/player/engineIndex.ts", from: "../../engine", refused: true },
  { file: "src/ui/player/client.ts", from: "../../engine/client", refused: false },
  { file: "src/ui/bench/host.ts", from: "../../engine/host", refused: false },
  { file: "src/ui/player/internals.test.ts", from: "../../engine/watchdog", refused: true },
  { file: "src/ui/cli.ts", from: "../cli/main", refused: true },
  { file: "src/ui/kit.ts", from: "../testing/playerTestKit", refused: true },
  { file: "src/ui/kit.test.ts", from: "../testing/playerTestKit", refused: false },
  { file: "src/engine/compute.ts", from: "../compute/playground/playgroundRun", refused: true },
  { file: "src/io/compute.ts", from: "../compute/run/runModel", refused: true },
  { file: "src/compute/upward.ts", from: "../ui/App", refused: true },
  { file: "src/compute/playground/upward.ts", from: "../../ui/playground/PlaygroundView", refused: true },
  { file: "src/compute/run/react.ts", from: "react", refused: true },
  { file: "src/compute/run/upward.test.ts", from: "../../ui/run/RunView", refused: true },
  { file: "src/compute/bench/kit.ts", from: "../../testing/benchTestRows", refused: true },
  { file: "src/compute/bench/kit.test.ts", from: "../../testing/benchTestRows", refused: false },
  { file: "src/compute/playground/engine.ts", from: "../../engine/client", refused: false },
  { file: "src/compute/bench/host.ts", from: "../../engine/host", refused: false },
  { file: "src/compute/run/io.ts", from: "../../io/slimeDump", refused: false },
  { file: "src/compute/contextParallel/core.ts", from: "../../core", refused: false },
  { file: "src/ui/playground/compute.ts", from: "../../compute/playground/playgroundClient", refused: false },
  { file: "src/ui/run/compute.test.ts", from: "../../compute/run/runModel", refused: false },
  { file: "src/compute/player/upward.ts", from: "../../ui/player/colors", refused: true },
  { file: "src/compute/player/react.ts", from: "react", refused: true },
  { file: "src/compute/player/upward.test.ts", from: "../../ui/player/PlayerView", refused: true },
  { file: "src/compute/player/engine.ts", from: "../../engine/client", refused: false },
  { file: "src/ui/player/compute.ts", from: "../../compute/player/frame", refused: false },
  { file: "src/ui/player/compute.test.ts", from: "../../compute/player/trace", refused: false },
  { file: "src/cli/ui.ts", from: "../ui/App", refused: true },
  { file: "src/cli/engine.ts", from: "../engine/runProblem", refused: false },
];

const probes = mkdtempSync(join(tmpdir(), "scanlab-layers-"));
afterAll(() => rmSync(probes, { recursive: true, force: true }));

it("refuses each upward import and allows the downward ones", () => {
  const folder = join(probes, "lint");
  mkdirSync(folder);
  copyFileSync(join(root, "biome.json"), join(folder, "biome.json"));
  for (const { file, from } of PROBES) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), `import * as probe from "${from}";\n\nexport const used = probe;\n`);
  }
  const run = spawnSync(process.execPath, [biome, "lint", "--reporter=json", "."], { cwd: folder, encoding: "utf8" });
  const report: { diagnostics: { category: string; location: { path: string } }[] } = JSON.parse(run.stdout);
  const refused = report.diagnostics
    .filter((d) => d.category === "lint/style/noRestrictedImports")
    .map((d) => d.location.path)
    .sort();
  expect(refused).toEqual(
    PROBES.filter((p) => p.refused)
      .map((p) => p.file)
      .sort(),
  );
  // Nothing else was wrong with the probes: a diagnostic of another kind would mean they test nothing.
  expect(report.diagnostics.filter((d) => d.category !== "lint/style/noRestrictedImports")).toEqual([]);
});

/**
 * Type-checks probes under `config` (the project's tsconfig for those layers): `pure` comes out clean; a file naming `document` fails.
 */
function refusesThePage(name: string, config: string, pure: string): void {
  const folder = join(probes, name);
  mkdirSync(folder);
  // The probe's folder lies outside the project, where vite's and WebGPU's types do not resolve; it needs neither.
  const tsconfig = { extends: join(root, config), compilerOptions: { types: [] }, include: ["*.ts"], exclude: [] };
  writeFileSync(join(folder, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(join(folder, "pure.ts"), pure);
  const clean = spawnSync(process.execPath, [tsc, "-p", folder], { encoding: "utf8" });
  expect(clean.stdout + clean.stderr).toBe("");
  writeFileSync(join(folder, "page.ts"), "export const title = (): string => document.title;\n");
  const page = spawnSync(process.execPath, [tsc, "-p", folder], { encoding: "utf8" });
  expect(page.stdout).toContain("page.ts(1,36): error TS2584: Cannot find name 'document'");
  expect(page.status).not.toBe(0);
}

it("compiles the lower layers without the DOM: a page global in them does not type-check", () => {
  refusesThePage("lower", "tsconfig.lower.json", "export const sum = [1, 2].reduce((a, b) => a + b, 0);\n");
});

it("compiles compute with the worker's library: it can post a message, not touch the page", () => {
  refusesThePage("compute", "tsconfig.compute.json", "export const answer = (n: number): void => postMessage(n);\n");
});
