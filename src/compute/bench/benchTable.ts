import { formatError, formatMs, formatSeconds, formatSpeedup } from "./benchFormat";
import { type BenchSize, JS_LOOP, sizeLabel } from "./benchPlan";
import { type BenchRow, leakedTensors } from "./benchResult";
import { speedupOverPerToken } from "./benchStats";
import { bestChunk, sweepGroups } from "./bestChunk";

/** The rows of a table: one per backend and strategy, in the order measured; the JS loop first. */
function lines(rows: readonly BenchRow[]): { backend: string; strategy: string; cells: Map<string, BenchRow> }[] {
  const out = new Map<string, { backend: string; strategy: string; cells: Map<string, BenchRow> }>();
  const ordered = [...rows.filter((r) => r.strategy === JS_LOOP), ...rows.filter((r) => r.strategy !== JS_LOOP)];
  for (const r of ordered) {
    const key = `${r.backend}|${r.strategy}`;
    const line = out.get(key) ?? { backend: r.backend, strategy: r.strategy, cells: new Map() };
    line.cells.set(sizeLabel(r.size), r);
    out.set(key, line);
  }
  return [...out.values()];
}

function sizesOf(rows: readonly BenchRow[]): BenchSize[] {
  const seen = new Map<string, BenchSize>();
  for (const r of rows) seen.set(sizeLabel(r.size), r.size);
  return [...seen.values()];
}

function nameCells(backend: string, strategy: string): [string, string] {
  return strategy === JS_LOOP ? ["plain JS typed-array loop", "serial"] : [backend, strategy];
}

/** One cell of the time table: the median and the speedup over per-token, or why there is none. */
export function timeCell(row: BenchRow | undefined, rows: readonly BenchRow[]): string {
  if (!row) return "";
  switch (row.status) {
    case "skipped":
      return row.estimatedMs === undefined ? "skipped" : `skipped (≈ ${formatSeconds(row.estimatedMs)} a run)`;
    case "failed":
      return "failed";
    case "unavailable":
      return "unavailable";
    case "wrong":
      return `wrong (${formatMs(row.medianMs ?? Number.NaN)})`;
    case "ok": {
      const speedup = speedupOverPerToken(row, rows);
      return `${formatMs(row.medianMs ?? Number.NaN)}${speedup === undefined ? "" : ` (${formatSpeedup(speedup)})`}`;
    }
  }
}

/** One cell of the error table: the worst max abs error over every run, ✗ when beyond its bound. */
export function errorCell(row: BenchRow | undefined): string {
  if (!row || row.checkedRuns === 0) return row ? "–" : "";
  return `${formatError(row.maxAbsError)}${row.status === "wrong" ? " ✗" : ""}`;
}

function markdown(header: string[], body: string[][]): string[] {
  const all = [header, ...body];
  const widths = header.map((_, i) => Math.max(3, ...all.map((r) => r[i].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...body.map(line)];
}

/** The time table: median ms with the speedup over per-token on the same backend, one column per size. */
export function timeTable(rows: readonly BenchRow[]): string[] {
  const main = rows.filter((r) => !r.sweep);
  const sizes = sizesOf(main);
  const body = lines(main).map((l) => [
    ...nameCells(l.backend, l.strategy),
    ...sizes.map((s) => timeCell(l.cells.get(sizeLabel(s)), main)),
  ]);
  return markdown(["backend", "strategy", ...sizes.map(sizeLabel)], body);
}

/** The error table: max abs error against the float64 serial reference, worst of every run. */
export function errorTable(rows: readonly BenchRow[]): string[] {
  const main = rows.filter((r) => !r.sweep);
  const sizes = sizesOf(main);
  const body = lines(main).map((l) => [
    ...nameCells(l.backend, l.strategy),
    ...sizes.map((s) => errorCell(l.cells.get(sizeLabel(s)))),
  ]);
  return markdown(["backend", "strategy", ...sizes.map(sizeLabel)], body);
}

/** The sweep table: time and max error per chunk size, the best C in bold and named in its own column. */
export function sweepTable(rows: readonly BenchRow[]): string[] {
  const groups = sweepGroups(rows);
  if (groups.length === 0) return [];
  const chunks = [...new Set(groups.flatMap((g) => g.points.map((p) => p.chunkSize)))].sort((a, b) => a - b);
  const body = groups.map((g) => {
    const best = bestChunk(g.points);
    const [backend, strategy] = [g.points[0].backend, g.points[0].strategy];
    const cells = chunks.map((c) => {
      const p = g.points.find((q) => q.chunkSize === c);
      if (!p) return "";
      const text =
        p.status === "ok" || p.status === "wrong" ? `${timeCell(p, rows)}, ${errorCell(p)}` : timeCell(p, rows);
      return p === best ? `**${text}**` : text;
    });
    return [backend, strategy, ...cells, best ? String(best.chunkSize) : "none"];
  });
  return markdown(["backend", "strategy", ...chunks.map((c) => `C = ${c}`), "best C"], body);
}

/** The notes under the tables: every skip, failure and wrong result with its reason, and the tensor count. */
export function notes(rows: readonly BenchRow[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    if (!r.note) continue;
    const what = r.strategy === JS_LOOP ? "plain JS loop" : `${r.backend} ${r.strategy}`;
    out.push(`- ${what} at ${sizeLabel(r.size)}${r.sweep ? `, C = ${r.chunkSize}` : ""}: ${r.note}`);
  }
  const counted = rows.filter((r) => r.tensorsBefore !== undefined && r.tensorsAfter !== undefined);
  const leaks = counted.filter((r) => leakedTensors(r) !== 0);
  if (leaks.length === 0) {
    if (counted.length > 0) {
      out.push(
        `- tensors: none leaked (tf.memory().numTensors equal before and after each of the ${counted.length} rows)`,
      );
    }
  } else {
    for (const r of leaks) {
      out.push(
        `- tensors: ${r.backend} ${r.strategy} at ${sizeLabel(r.size)} left ${leakedTensors(r)} (${r.tensorsBefore} before, ${r.tensorsAfter} after)`,
      );
    }
  }
  return out;
}

/** Everything a run printed: the time table, the error table, the sweep and the notes. */
export function markdownReport(rows: readonly BenchRow[]): string[] {
  const out: string[] = [];
  if (rows.some((r) => !r.sweep)) {
    out.push("Median time (speedup over per-token on the same backend):", "", ...timeTable(rows), "");
    out.push("Max abs error against the float64 serial reference, worst of every run:", "", ...errorTable(rows), "");
  }
  const sweep = sweepTable(rows);
  if (sweep.length > 0) out.push("Chunk-size sweep: median time, max abs error; best C in bold:", "", ...sweep, "");
  const n = notes(rows);
  if (n.length > 0) out.push("Notes:", ...n);
  return out;
}
