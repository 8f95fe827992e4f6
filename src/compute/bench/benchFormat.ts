/** How times, speedups and errors are written, the same in the command's table and in the panel. */

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  if (ms < 1) return `${Number(ms.toPrecision(2))} ms`;
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function formatSpeedup(x: number): string {
  return x >= 10 ? `${Math.round(x)}×` : `${x.toFixed(1)}×`;
}

export function formatError(e: number | undefined): string {
  if (e === undefined) return "–";
  if (Number.isNaN(e)) return "NaN";
  if (e === 0) return "0";
  return e.toExponential(1).replace("e+", "e");
}

/** A long time, for the estimates of skipped rows: seconds, whole above 10. */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return s >= 10 ? `${Math.round(s)} s` : `${s.toFixed(1)} s`;
}
