import { MIN_REPS, sizeLabel } from "./benchPlan";
import { DEFAULT_PANEL, PANEL_CHUNKS, PANEL_SIZES, type PanelSettings } from "./panelSettings";

/**
 * The panel's settings a link may set: `?view=bench&rows=8&tokens=4096&chunk=64&reps=7`. `rows` and
 * `tokens` pick among the panel's sizes (either alone picks every size it matches). A value the
 * panel cannot take is reported, naming the parameter, the value and what is accepted, and the
 * default stays: the same wording as the playground's address parameters.
 */
export const BENCH_PARAMS = ["rows", "tokens", "chunk", "reps"] as const;

export interface BenchAddress {
  settings: PanelSettings;
  /** One line per ignored parameter. */
  problems: string[];
}

const MAX_REPS = 100;

export function benchSettingsFromSearch(search: string, base: PanelSettings = DEFAULT_PANEL): BenchAddress {
  const params = new URLSearchParams(search);
  const settings: PanelSettings = { ...base };
  const problems: string[] = [];
  const ignore = (param: string, raw: string, expected: string) =>
    problems.push(`Address: ${param}=${raw}: expected ${expected}, got ${JSON.stringify(raw)}; ignored`);
  const one = (param: (typeof BENCH_PARAMS)[number]): string | undefined => {
    const values = params.getAll(param);
    if (values.length <= 1 || new Set(values).size === 1) return values[0];
    problems.push(`Address: ${param} appears ${values.length} times with different values; ignored`);
    return undefined;
  };

  const rowChoices = [...new Set(PANEL_SIZES.map((z) => z.rows))];
  const tokenChoices = [...new Set(PANEL_SIZES.map((z) => z.cols))];
  const rows = wholeOf(one("rows"), rowChoices, "rows", ignore);
  const tokens = wholeOf(one("tokens"), tokenChoices, "tokens", ignore);
  if (rows !== undefined || tokens !== undefined) {
    const sizes = PANEL_SIZES.filter((z) => (rows ?? z.rows) === z.rows && (tokens ?? z.cols) === z.cols);
    if (sizes.length > 0) settings.sizes = sizes.map(sizeLabel);
    else
      problems.push(
        `Address: rows=${rows}&tokens=${tokens}: ${rows}×${tokens} is not one of the panel's sizes (${PANEL_SIZES.map(sizeLabel).join(", ")}); ignored`,
      );
  }
  const chunk = wholeOf(one("chunk"), PANEL_CHUNKS, "chunk", ignore);
  if (chunk !== undefined) settings.chunkSize = chunk;
  const reps = one("reps");
  if (reps !== undefined) {
    const n = /^\d+$/.test(reps.trim()) ? Number(reps) : Number.NaN;
    if (n >= MIN_REPS && n <= MAX_REPS) settings.reps = n;
    else ignore("reps", reps, `a whole number of runs from ${MIN_REPS} to ${MAX_REPS}`);
  }
  return { settings, problems };
}

/** A whole number from `choices`, or undefined (reported) for anything else: NaN, inf, −Infinity, 3.5, 0x10. */
function wholeOf(
  raw: string | undefined,
  choices: readonly number[],
  param: string,
  ignore: (param: string, raw: string, expected: string) => void,
): number | undefined {
  if (raw === undefined) return undefined;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : Number.NaN;
  if (choices.includes(n)) return n;
  ignore(param, raw, `one of ${choices.join(", ")}`);
  return undefined;
}
