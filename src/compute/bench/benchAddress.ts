import { MIN_REPS, sizeLabel } from "./benchPlan";
import { DEFAULT_PANEL, PANEL_CHUNKS, PANEL_SIZES, type PanelSettings } from "./panelSettings";

/**
 * The panel's settings a link may set: `?view=bench&rows=8&tokens=4096&chunk=64&reps=7`. `rows` and
 * `tokens` pick among the panel's sizes (either alone picks every size it matches); `sizes` lists
 * several (`sizes=1x1024,64x32768`; empty: none). A value the
 * panel cannot take is reported, naming the parameter, the value and what is accepted, and the
 * default stays: the same wording as the playground's address parameters.
 */
export const BENCH_PARAMS = ["rows", "tokens", "sizes", "chunk", "reps"] as const;

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
  const list = one("sizes");
  if (list !== undefined) {
    const labels = list.split(",").filter((label) => label.trim() !== "");
    const sizes = labels.map((label) => PANEL_SIZES.find((z) => sizeLabel(z) === label.trim().replace("x", "×")));
    if (sizes.every((z) => z !== undefined) && rows === undefined && tokens === undefined) {
      settings.sizes = PANEL_SIZES.filter((z) => sizes.includes(z)).map(sizeLabel);
    } else {
      const why = rows !== undefined || tokens !== undefined ? ", and not with rows or tokens" : "";
      ignore("sizes", list, `a comma-separated list of ${PANEL_SIZES.map(sizeLabel).join(", ")} (or 8x4096)${why}`);
    }
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

/**
 * The query string with the panel's settings written back (other parameters kept), in the form
 * benchSettingsFromSearch reads: a link then reopens the panel as it is. Defaults are left out;
 * one size is `rows` and `tokens`, several are `sizes`.
 */
export function benchSearch(settings: PanelSettings, previousSearch: string): string {
  const params = new URLSearchParams(previousSearch);
  for (const param of BENCH_PARAMS) params.delete(param);
  const sizes = PANEL_SIZES.filter((z) => settings.sizes.includes(sizeLabel(z)));
  const defaultSizes = sizes.map(sizeLabel).join() === DEFAULT_PANEL.sizes.join();
  if (sizes.length === 1) {
    params.set("rows", String(sizes[0].rows));
    params.set("tokens", String(sizes[0].cols));
  } else if (!defaultSizes) {
    params.set("sizes", sizes.map((z) => `${z.rows}x${z.cols}`).join(","));
  }
  if (settings.chunkSize !== DEFAULT_PANEL.chunkSize) params.set("chunk", String(settings.chunkSize));
  // A count being typed (empty, 3) stays out of the address until it is one the panel runs.
  const reps = settings.reps;
  if (Number.isInteger(reps) && reps >= MIN_REPS && reps <= MAX_REPS && reps !== DEFAULT_PANEL.reps) {
    params.set("reps", String(reps));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
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
