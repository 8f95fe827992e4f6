import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { SlimeSettings } from "../../core";
import { SLIME_DEFAULTS } from "../../core";
import { encodeState, stateFragment } from "../../io/shareLink";
import { ChartWarmUp } from "../charts/ChartWarmUp";
import { formatShort } from "../charts/formatNumber";
import { ReturnsChart } from "../charts/ReturnsChart";
import { ErrorHeatmap } from "../heatmap/ErrorHeatmap";
import { replaceSearch } from "../urlState";
import { useStaged } from "../useStaged";
import { RunSamples } from "./RunSamples";
import { RunSettings } from "./RunSettings";
import { runSettingsFromSearch, runSettingsToSearch } from "./runAddress";
import { RunClient } from "./runClient";
import { loadRunFiles, saveRunFiles } from "./runStore";
import { sampleToPlayground } from "./runToPlayground";
import type { RunFile, RunReport } from "./runWorker";
import "./run.css";

const SIDES = {
  reference: "the float64 reference",
  actual: "the dump",
  both: "the dump and the reference",
  symbols: { reference: "reference", actual: "dump" },
};

/**
 * No chunk lines: slime pads each data-parallel rank's samples to that rank's longest, so a dump's
 * chunks fall differently per rank, and a line drawn for the whole batch would mislead. One array for
 * every render: the heatmap measures its picture again whenever its inputs change by identity.
 */
const NO_BOUNDARIES: number[] = [];

type Trial = Awaited<ReturnType<RunClient["search"]>>[number];

/**
 * Your run: slime's own debug dumps (train_data/{id}.pt, with its rollout_data/{id}.pt), opened
 * in a worker, replayed against the float64 reference with the run's settings, every sample's
 * stored advantages and returns held to their float32 bounds. The file stays in this browser.
 */
export function RunView({ urlProblems }: { urlProblems: string[] }) {
  const [client] = useState(() => new RunClient());
  useEffect(() => () => client.dispose(), [client]);
  const [address] = useState(() => runSettingsFromSearch(window.location.search));
  const [given, setGiven] = useState<Partial<SlimeSettings>>(address.settings);
  const [report, setReport] = useState<RunReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState<string | null>(null);
  const [replaying, setReplaying] = useState(false);
  const [trials, setTrials] = useState<Trial[] | null>(null);
  const [searching, setSearching] = useState(false);
  const [selected, setSelected] = useState(0);
  const [field, setField] = useState<"advantages" | "returns">("advantages");
  const opened = useRef(false);

  const open = useCallback(
    /** `keep`: the files the user chose, kept in this browser once the reader accepts them (null: a reopened dump). */
    (files: RunFile[], settings: Partial<SlimeSettings>, keep: File[] | null) => {
      setReading(files.map((f) => f.name).join(" + "));
      client
        .open(files, settings)
        .then(async (answer) => {
          if (!answer.ok) {
            setError(answer.message);
            return;
          }
          setError(keep ? await saveRunFiles(keep) : null);
          opened.current = true;
          setReport(answer.report);
          setTrials(null);
          setSelected(worstSample(answer.report));
        })
        .catch((reason: unknown) => setError(`The dump could not be read (${String(reason)})`))
        .finally(() => setReading(null));
    },
    [client],
  );

  // A reload reopens the user's last dump from this browser, with the settings in the address.
  useEffect(() => {
    loadRunFiles().then((files) => {
      if (files && !opened.current) open(files, address.settings, null);
    });
  }, [open, address]);

  const onFiles = (list: FileList | null) => {
    const chosen = [...(list ?? [])].slice(0, 2);
    if (chosen.length === 0) return;
    Promise.all(chosen.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })))
      .then((files) => open(files, given, chosen))
      .catch((reason: unknown) => setError(`The file could not be read (${String(reason)})`));
  };

  // What the user set wins at once (a control shows its new value while the replay runs); the report fills the rest.
  const settings: SlimeSettings = { ...(report?.settings ?? SLIME_DEFAULTS), ...given };
  const onSettings = (next: SlimeSettings) => {
    setGiven(next);
    replaceSearch(runSettingsToSearch(next, window.location.search));
    if (!report) return;
    setReplaying(true);
    client
      .replay(next)
      .then((answer) => {
        setReplaying(false);
        if (answer.ok) setReport(answer.report);
        else setError(answer.message);
      })
      .catch(() => {}); // superseded by a newer change, whose answer clears the busy mark
  };
  const onSearch = () => {
    setSearching(true);
    client
      .search(settings)
      .then(setTrials)
      .catch((reason: unknown) => setError(String(reason)))
      .finally(() => setSearching(false));
  };
  const openInPlayground = () => {
    client.sample(selected).then((lanes) => {
      if (!lanes) return;
      const state = sampleToPlayground(lanes, settings);
      if (typeof state === "string") setError(`Open in the playground: ${state}`);
      else window.location.assign(`${window.location.pathname}${stateFragment(encodeState(state))}`);
    });
  };

  // A new report is drawn in four commits, each after the last one was painted: the summary and the
  // settings, then the samples table, then the heatmap's frame (its picture follows in slices), then
  // the selected sample's chart (its plot follows in slices), so that a 64 × 8192 dump's results never
  // make one long main-thread task.
  const [, tableReport, heatmapReport, sampleReport] = useStaged(report, 4, { afterPaint: true });
  const grid = heatmapReport?.grids[field] ?? null;
  const sampleGrid = sampleReport?.grids[field] ?? null;
  const sample = useMemo(() => (sampleGrid ? sampleSeries(sampleGrid, selected) : null), [sampleGrid, selected]);
  // What the heatmap and the chart have drawn (by the identity of their reference arrays): the results
  // stay busy until both show the current report (a sample of no tokens has no line to wait for).
  const [heatmapDrawn, setHeatmapDrawn] = useState<ArrayLike<number> | null>(null);
  const [chartDrawn, setChartDrawn] = useState<ArrayLike<number> | null>(null);
  const drawing =
    sampleReport !== report ||
    (grid !== null && heatmapDrawn !== grid.reference) ||
    (sample !== null && sample.reference.length > 0 && chartDrawn !== sample.reference);

  return (
    <div className="run-view">
      <header className="panel run-intro">
        <h1>Your run</h1>
        <p>
          Open a dump slime wrote (<code>--save-debug-train-data</code>: <code>train_data/&lt;id&gt;.pt</code>, and its{" "}
          <code>rollout_data/&lt;id&gt;.pt</code> beside it), or a <code>.npz</code> or <code>.safetensors</code>.
          Scanlab recomputes slime's advantages and returns from the dump's own inputs in float64 and holds every stored
          value to its float32 bound. The file is read here, by a strict reader that runs nothing in it, and stays in
          this browser.
        </p>
        <label className="run-file">
          Dump file(s){" "}
          <input
            type="file"
            multiple
            accept=".pt,.pth,.npz,.safetensors"
            data-testid="run-file-input"
            onChange={(event) => {
              onFiles(event.currentTarget.files);
              event.currentTarget.value = "";
            }}
          />
        </label>
      </header>
      {urlProblems.length + address.problems.length > 0 ? (
        <div className="notice url-notice" role="status" data-testid="url-notice">
          {[...urlProblems, ...address.problems].map((line) => (
            <p key={line}>{line}</p>
          ))}
        </div>
      ) : null}
      {reading ? (
        <p className="notice" role="status">
          Reading {reading}…
        </p>
      ) : null}
      {error ? (
        <p className="error-message" role="alert" data-testid="error-message">
          {error}
        </p>
      ) : null}
      <div className="run-columns">
        <RunSettings
          settings={settings}
          guess={report?.guess ?? {}}
          onChange={onSettings}
          onSearch={onSearch}
          searching={searching}
        />
        <section
          className="panel run-overview"
          aria-live="polite"
          aria-busy={reading !== null || replaying || drawing}
          data-testid="run-results"
        >
          <p className="run-summary" data-testid="run-summary">
            {report ? report.summary : "No dump open yet."}
          </p>
          {report ? <Glance report={report} /> : null}
          {report ? (
            <p className="muted small">
              Read and replayed in the run view's worker:{" "}
              <span data-testid="run-millis">
                read {report.millis.read} ms, replay {report.millis.replay} ms
              </span>
            </p>
          ) : null}
          {report?.notes.map((note) => (
            <p key={note} className="muted small">
              {note}
            </p>
          ))}
          {trials ? <Trials trials={trials} onUse={onSettings} /> : null}
        </section>
      </div>
      {tableReport && tableReport.rows.length > 0 ? (
        <RunSamples rows={tableReport.rows} selected={selected} onSelect={setSelected} />
      ) : null}
      {grid ? (
        <section className="panel" aria-labelledby="run-heatmap-title">
          <h2 id="run-heatmap-title">|dump − reference| of the {field}, sample × token</h2>
          <div className="run-field" role="radiogroup" aria-label="Field shown">
            {(["advantages", "returns"] as const).map((name) => (
              <label key={name}>
                <input type="radio" name="run-field" checked={field === name} onChange={() => setField(name)} /> {name}
              </label>
            ))}
          </div>
          <ErrorHeatmap
            rows={grid.rows}
            cols={grid.cols}
            lengths={grid.lengths}
            reference={grid.reference}
            actual={grid.actual}
            lossMask={grid.lossMask}
            bound={grid.bound}
            chunkBoundaries={NO_BOUNDARIES}
            metric="abs"
            precision="float32"
            selectedRow={selected}
            onSelectRow={setSelected}
            sides={SIDES}
            onDrawn={setHeatmapDrawn}
          />
        </section>
      ) : null}
      {sample ? (
        <section className="panel" aria-labelledby="run-sample-title">
          <h2 id="run-sample-title">
            Sample {selected}: {field}
          </h2>
          <ReturnsChart
            title={`${field === "advantages" ? "Advantages" : "Returns"}, sample ${selected}`}
            reference={sample.reference}
            chunked={sample.actual}
            chunkedLabel="slime's stored float32 (the dump)"
            chunkBoundaries={NO_BOUNDARIES}
            lossMask={sample.lossMask}
            plotTiming="slices"
            onDrawn={setChartDrawn}
          />
          <button type="button" onClick={openInPlayground} data-testid="run-open-playground">
            Open this sample in the playground
          </button>
          <span className="muted small">
            {" "}
            to watch Scanlab's own chunked float32 scan of it beside the reference, token by token, and from there in
            the player.
          </span>
        </section>
      ) : null}
      {report ? null : <ChartWarmUp />}
    </div>
  );
}

/** The sample to show first: the one furthest over (or closest to) its bound. */
function worstSample(report: RunReport): number {
  let worst = 0;
  let fraction = -1;
  for (const row of report.rows) {
    const f = row.verdict?.worstFraction ?? -1;
    if (f > fraction) {
      fraction = f;
      worst = row.index;
    }
  }
  return worst;
}

function sampleSeries(grid: NonNullable<RunReport["grids"]["advantages"]>, b: number) {
  if (b >= grid.rows) return null;
  const start = b * grid.cols;
  const end = start + grid.lengths[b];
  return {
    reference: grid.reference.subarray(start, end),
    actual: grid.actual.subarray(start, end),
    lossMask: grid.lossMask.subarray(start, end),
  };
}

function Glance({ report }: { report: RunReport }) {
  const g = report.glance;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return (
    <dl className="run-glance">
      <dt>lengths</dt>
      <dd>
        {g.minLength}–{g.maxLength} tokens (mean {g.meanLength.toFixed(0)})
      </dd>
      <dt>rewards</dt>
      <dd>
        {formatShort(g.minReward)} … {formatShort(g.maxReward)} (mean {formatShort(g.meanReward)})
      </dd>
      <dt>masked</dt>
      <dd>{pct(g.maskedShare)} of response tokens (loss mask 0)</dd>
      <dt>truncated</dt>
      <dd>{g.truncated === null ? "unknown (open the rollout dump with it)" : `${g.truncated} samples`}</dd>
      <dt>padding</dt>
      <dd title="slime pads every sample to the longest before its chunked scans: work on zeros">
        {pct(g.paddingShare)} of a [{g.samples}, {g.maxLength}] batch is padding
      </dd>
    </dl>
  );
}

function Trials({ trials, onUse }: { trials: Trial[]; onUse(settings: SlimeSettings): void }) {
  const passing = trials.filter((t) => t.passed);
  return (
    <div className="run-trials" data-testid="run-trials">
      <p>
        {passing.length > 0
          ? `${passing.length} setting${passing.length === 1 ? "" : "s"} reproduce the dump (every sample within bound):`
          : "No estimator, normalisation or KL formula reproduces the dump with this γ, λ and kl_coef; the closest:"}
      </p>
      <ul>
        {(passing.length > 0 ? passing : trials.slice(0, 3)).map((t) => (
          <li key={JSON.stringify(t.settings)}>
            <button type="button" onClick={() => onUse(t.settings)}>
              Use
            </button>{" "}
            {t.settings.advantageEstimator}, normalize_advantages {String(t.settings.normalizeAdvantages)}, kl_loss_type{" "}
            {t.settings.klLossType}: {t.samplesPassed} samples within bound
          </li>
        ))}
      </ul>
    </div>
  );
}
