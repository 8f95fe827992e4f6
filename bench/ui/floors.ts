/** The two fixed figures bench:ui prints beside its timings: the compute floor and the entry chunk's size. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Page } from "@playwright/test";

/**
 * The compute floor of a batch: a plain float32 loop `G = r + γ·G` right to left over each of
 * `rows` rows of `tokens` (a Float32Array, float32 results, as the scan bench's js-loop), timed in
 * the page: the median of 21 samples, each enough back-to-back runs to last 5 ms (the page's
 * clock is coarsened to 100 µs). Plain JavaScript in a string: see probe.ts.
 */
export async function computeFloorMs(page: Page, rows: number, tokens: number): Promise<number> {
  return page.evaluate(`(() => {
    const rows = ${rows}, cols = ${tokens}, gamma = 0.99;
    const rewards = new Float32Array(rows * cols);
    let seed = 7;
    for (let i = 0; i < rewards.length; i++) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      rewards[i] = seed / 2 ** 32 - 0.5;
    }
    let sink = 0;
    const run = () => {
      const out = new Float32Array(rows * cols);
      for (let b = 0; b < rows; b++) {
        let running = 0;
        for (let i = (b + 1) * cols - 1; i >= b * cols; i--) {
          out[i] = rewards[i] + gamma * running;
          running = out[i];
        }
      }
      sink += out[0];
    };
    for (let i = 0; i < 5; i++) run();
    let loops = 1;
    for (;;) {
      const start = performance.now();
      for (let i = 0; i < loops; i++) run();
      if (performance.now() - start >= 5 || loops >= 1e6) break;
      loops *= 2;
    }
    const samples = [];
    for (let s = 0; s < 21; s++) {
      const start = performance.now();
      for (let i = 0; i < loops; i++) run();
      samples.push((performance.now() - start) / loops);
    }
    samples.sort((a, b) => a - b);
    window.__floorSink = sink; // keeps the loop's result alive
    return samples[10];
  })()`);
}

/** What the first screen waits for before anything is drawn: the entry script and its module preloads. */
export interface EntryChunk {
  files: { name: string; bytes: number; gzip: number }[];
  bytes: number;
  gzip: number;
}

/**
 * Reads the built index.html: its module script and every `<link rel="modulepreload">`, each
 * gzipped with node:zlib at its default level (as `gzip -c` and most servers).
 */
export function entryChunk(outDir: string): EntryChunk {
  const html = readFileSync(join(outDir, "index.html"), "utf8");
  const names = new Set<string>();
  for (const tag of html.match(/<script\b[^>]*>/g) ?? []) {
    if (/type="module"/.test(tag)) names.add(/src="([^"]+)"/.exec(tag)?.[1] ?? "");
  }
  for (const tag of html.match(/<link\b[^>]*>/g) ?? []) {
    if (/rel="modulepreload"/.test(tag)) names.add(/href="([^"]+)"/.exec(tag)?.[1] ?? "");
  }
  names.delete("");
  const files = [...names].map((name) => {
    const body = readFileSync(join(outDir, name.replace(/^\//, "")));
    return { name, bytes: body.length, gzip: gzipSync(body).length };
  });
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
  };
}
