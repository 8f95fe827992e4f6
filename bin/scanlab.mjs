#!/usr/bin/env -S GLIBC_TUNABLES=glibc.malloc.hugetlb=1:${GLIBC_TUNABLES} node --no-concurrent-recompilation
// The `scanlab` command runs the TypeScript sources as they are now, so it never disagrees with the code the
// tests and the page use, and needs no build step after `npm ci`. Loading some 200 modules through tsx's
// loader hooks cost about 0.9 s of CPU per command, so the sources are bundled by esbuild (the compiler tsx
// itself runs) into node_modules/.cache and the bundle is reused while every source it was built from holds
// the same bytes: each start reads and hashes those files (a few ms) and rebuilds on any difference.
// Anything that goes wrong on that path (no write access, a syntax error) runs the sources through tsx.
//
// The first line runs node with --no-concurrent-recompilation (so do `npm run scanlab` and the tests): with V8's
// optimising compiler on a background thread, node 20–26 can deadlock at exit, now and then, after the report is
// written (nodejs/node#54918: the compile job waits for a collection on the main thread, which waits for the job).
// Seen here in 1 of 20 to 1 of 180 runs of `scanlab dump` on a loaded machine, never with the flag; it costs no
// time we could measure (ppo512: 2.6–3.7 s wall with it, 2.7–3.5 s without, alternated). Run directly, as
// `node bin/scanlab.mjs`, the command lacks the flag: pass it.
//
// It also asks glibc for transparent huge pages under the large buffers a dump's fields are read into
// (glibc.malloc.hugetlb=1; used where the kernel's THP is `madvise` or `always`, ignored elsewhere): a
// 195 MB dump faulted in some 70,000 fresh 4 kB pages, a third of the command's CPU, and 18,000 with
// it (docs/dumps.md). The variable is read when the process starts, hence here; a GLIBC_TUNABLES of the
// user's own comes after ours and wins.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const ENTRY = "src/cli/main.ts";
// Bumped when the build options below change: a bundle built with other options is not reused.
const BUILD_VERSION = "1";

// A closed pipe (`scanlab check f | head`) or a full disk ends the command quietly, not with a trace.
process.stdout.on("error", (error) => {
  if (error.code !== "EPIPE") process.stderr.write(`scanlab: cannot write the report: ${error.message}\n`);
  process.exit(error.code === "EPIPE" ? (process.exitCode ?? 0) : 2);
});
const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2));

async function loadMain() {
  if (process.env.SCANLAB_NO_BUNDLE !== "1") {
    let bundle = null;
    try {
      bundle = cachedBundle() ?? (await buildBundle());
    } catch {
      bundle = null;
    }
    // A bundle pruned by another checkout's build between the check and the import: the sources, then.
    if (bundle) return import(pathToFileURL(bundle).href).catch(() => viaTsx());
  }
  return viaTsx();
}

async function viaTsx() {
  const { register } = await import("tsx/esm/api");
  register();
  return import("../src/cli/main.ts");
}

function cacheDir() {
  return join(root, "node_modules", ".cache", "scanlab-cli");
}

/** This checkout's manifest: worktrees sharing one node_modules keep one each. */
function manifestPath() {
  const id = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return join(cacheDir(), `manifest-${id}.json`);
}

/** The hash of the build's inputs: the options, the compiler's version, and every source file's path and bytes. */
function inputsHash(esbuildVersion, files) {
  const hash = createHash("sha256").update(`${BUILD_VERSION}\0${esbuildVersion}\0${process.versions.node}\0`);
  for (const [path, bytes] of files) hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  return hash.digest("hex").slice(0, 32);
}

/** The bundle built from these very bytes, or null (none yet, or a source changed since). */
function cachedBundle() {
  let manifest;
  let files;
  try {
    manifest = JSON.parse(readFileSync(manifestPath(), "utf8"));
    // A source the bundle was built from and since deleted: rebuilt, not run through tsx from then on.
    files = manifest.inputs.map((path) => [path, readFileSync(join(root, path))]);
  } catch {
    return null;
  }
  const hash = inputsHash(manifest.esbuild, files);
  const bundle = join(cacheDir(), hash, "main.js");
  return hash === manifest.hash && existsSync(bundle) ? bundle : null;
}

async function buildBundle() {
  const esbuild = await import("esbuild");
  const compiled = new Map();
  // Every file esbuild compiles goes through here, so the hash is of the bytes that were bundled.
  const recordSources = {
    name: "record-sources",
    setup(build) {
      build.onLoad({ filter: /\.(m?[jt]sx?|json)$/ }, (args) => {
        const bytes = readFileSync(args.path);
        compiled.set(relative(root, args.path), bytes);
        const ext = args.path.slice(args.path.lastIndexOf(".") + 1);
        const loader = ext === "json" ? "json" : ext.replace(/^m/, "").replace(/^c/, "");
        return { contents: bytes, loader };
      });
    },
  };
  for (const config of ["tsconfig.json", "package.json"]) compiled.set(config, readFileSync(join(root, config)));
  const staging = join(cacheDir(), `building-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: { main: ENTRY },
      bundle: true,
      // Dynamic imports (the tfjs engine) stay separate chunks, loaded only when a command asks for them.
      splitting: true,
      format: "esm",
      platform: "node",
      packages: "external",
      target: `node${process.versions.node}`,
      tsconfig: join(root, "tsconfig.json"),
      outdir: staging,
      logLevel: "silent",
      plugins: [recordSources],
    });
    const inputs = [...compiled.keys()].sort();
    const hash = inputsHash(
      esbuild.version,
      inputs.map((path) => [path, compiled.get(path)]),
    );
    const target = join(cacheDir(), hash);
    try {
      renameSync(staging, target);
    } catch {
      // Another command built the same sources at the same time: theirs is the same bundle.
      if (!existsSync(join(target, "main.js"))) throw new Error("no bundle");
    }
    const manifest = manifestPath();
    writeFileSync(`${manifest}.${process.pid}`, JSON.stringify({ esbuild: esbuild.version, hash, inputs }));
    renameSync(`${manifest}.${process.pid}`, manifest);
    prune(hash);
    return join(target, "main.js");
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Keeps the ten newest bundles (worktrees of one checkout share the cache); older ones are rebuilt if asked for. */
function prune(keep) {
  const entries = readdirSync(cacheDir(), { withFileTypes: true });
  // A build killed halfway leaves its staging folder: gone after an hour.
  for (const d of entries)
    if (d.name.startsWith("building-") && statSync(join(cacheDir(), d.name)).mtimeMs < Date.now() - 3600e3)
      rmSync(join(cacheDir(), d.name), { recursive: true, force: true });
  const dirs = entries
    .filter((d) => d.isDirectory() && /^[0-9a-f]{32}$/.test(d.name) && d.name !== keep)
    .map((d) => ({ name: d.name, at: statSync(join(cacheDir(), d.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const d of dirs.slice(9)) rmSync(join(cacheDir(), d.name), { recursive: true, force: true });
}
