import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { PictureSource } from "../../compute/heatmap/picture";
import { RunClient } from "../../compute/run/runClient";
import type { GridField, GridInfo } from "../../compute/run/runGrid";
import type { OpenProgress, PlaygroundAnswer, RunFile, RunGrids, RunReport } from "../../compute/run/runWorker";
import { type SampleFieldsAnswer, sampleSeries } from "../../compute/run/sampleFields";
import { sampleRowAt } from "../../compute/run/sampleTable";
import type { SlimeSettings } from "../../core";
import { SLIME_DEFAULTS } from "../../core";
import { SupersededError } from "../../engine/client";
import { formatShort } from "../../io/formatNumber";
import { stateFragment } from "../../io/shareLink";
import { ErrorHeatmap } from "../heatmap/ErrorHeatmap";
import { replaceSearch } from "../urlState";
import { RunCheck } from "./RunCheck";
import { RunExports } from "./RunExports";
import { RunFileKind } from "./RunFileKind";
import { RunFolder } from "./RunFolder";
import { type Reading, RunReading } from "./RunReading";
import { chartReference, RunSampleChart } from "./RunSampleChart";
import { RunSampleFields } from "./RunSampleFields";
import { RunSamples } from "./RunSamples";
import { RunSettings } from "./RunSettings";
import { runSettingsFromSearch, runSettingsToSearch } from "./runAddress";
import { FIELD_NAMES, fieldCaption, fieldHeading, fieldSides } from "./runFieldText";
import { loadRunFiles, saveRunFiles } from "./runStore";
import "./run.css";
import { Note } from "../Note";
import { ToolbarButton } from "../ToolbarButton";

/**
 * No chunk lines: slime pads each data-parallel rank's samples to that rank's longest, so a dump's
 * chunks fall differently per rank, and a line drawn for the whole batch would mislead. One array for
 * every render: the heatmap measures its picture again whenever its inputs change by identity.
 */
const NO_BOUNDARIES: number[] = [];

const FIELDS: GridField[] = ["advantages", "returns", "kl"];

type Trial = Awaited<ReturnType<RunClient["search"]>>[number];

/**
 * Your run: slime's own debug dumps (train_data/{id}.pt, with its rollout_data/{id}.pt), opened
 * in a worker, replayed against the float64 reference with the run's settings, every sample's
 * stored advantages and returns held to their float32 bounds. The file stays in this browser.
 */
export function RunView({ urlProblems }: { urlProblems: string[] }) {
  const [client] = useState(() => new RunClient());
  // The worker started with the view, not when a file is chosen: loading and compiling its module
  // (the readers and the replay) then comes before the file, not inside the wait for the verdict.
  useEffect(() => {
    client.warm();
    return () => client.dispose();
  }, [client]);
  const [address] = useState(() => runSettingsFromSearch(window.location.search));
  const [given, setGiven] = useState<Partial<SlimeSettings>>(address.settings);
  const [report, setReport] = useState<RunReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState<Reading | null>(null);
  const reads = useRef(0);
  const [replaying, setReplaying] = useState(false);
  const [trials, setTrials] = useState<Trial[] | null>(null);
  const [searching, setSearching] = useState(false);
  // The selected sample by its identity, its index in the dump: the table's order changes with every
  // replay (worst first), and the chart and the heatmap follow the sample, not a row position.
  const [selected, setSelected] = useState(0);
  const [field, setField] = useState<GridField>("advantages");
  // The grids' shapes and the bit-for-bit comparison follow the verdict, each tagged with the worker's
  // replay it belongs to; the grids themselves stay in the worker, which pools their pictures.
  const [loadedGrids, setLoadedGrids] = useState<{ replay: number; fileName: string; grids: RunGrids } | null>(null);
  const [loadedBits, setLoadedBits] = useState<{ replay: number; bits: string | null } | null>(null);
  const opened = useRef(false);
  const results = useRef<HTMLElement>(null);

  const open = useCallback(
    /** `keep`: the files the user chose, kept in this browser once the reader accepts them (null: a reopened dump). */
    (files: RunFile[], settings: Partial<SlimeSettings>, keep: File[] | null) => {
      const names = files.map((f) => f.name).join(" + ");
      // A file chosen while another is read takes its place.
      client.cancelOpen();
      const id = ++reads.current;
      const startedAt = performance.now();
      setReading({ names, startedAt, now: startedAt, progress: null });
      // Progress posted before a cancel can arrive after it: only a read still going is shown.
      let going = true;
      const onProgress = (progress: OpenProgress) => {
        if (going && reads.current === id) setReading({ names, startedAt, now: performance.now(), progress });
      };
      client
        .open(files, settings, onProgress)
        .then(async (answer) => {
          if (!answer.ok) {
            setError(answer.message);
            return;
          }
          setError(keep ? await saveRunFiles(keep) : null);
          setKeptProblem(null);
          opened.current = true;
          setReport(answer.report);
          setTrials(null);
          setSelected(worstSample(answer.report));
        })
        .catch((reason: unknown) => {
          if (reads.current !== id || reason instanceof SupersededError) return; // a newer file's read took its place
          const cancelled = reason instanceof Error && reason.message === "cancelled";
          setError(
            cancelled
              ? `Cancelled: ${names} was not read${opened.current ? "; the dump open before stays open" : ""}.`
              : `The dump could not be read (${String(reason)})`,
          );
        })
        .finally(() => {
          going = false;
          if (reads.current === id) setReading(null);
        });
    },
    [client],
  );

  // A reload reopens this tab's last dump, with the settings in the address; a kept file that no
  // longer reads is named, with what to do.
  const [keptProblem, setKeptProblem] = useState<string | null>(null);
  useEffect(() => {
    loadRunFiles().then((kept) => {
      if (opened.current) return;
      if (kept.kind === "files") open(kept.files, address.settings, null);
      else if (kept.kind === "unreadable") setKeptProblem(kept.message);
    });
  }, [open, address]);

  const onFiles = (list: FileList | null) => {
    const chosen = [...(list ?? [])].slice(0, 2);
    if (chosen.length === 0) return;
    open(
      chosen.map((f) => ({ name: f.name, blob: f })),
      given,
      chosen,
    );
  };

  // What the user set wins at once (a control shows its new value while the replay runs); the report fills the rest.
  const settings: SlimeSettings = { ...(report?.settings ?? SLIME_DEFAULTS), ...given };
  // A setting the user changes becomes theirs; the others stay as read off the dump.
  const onSettings = (next: SlimeSettings) => {
    const changed = (Object.keys(next) as (keyof SlimeSettings)[]).filter((key) => next[key] !== settings[key]);
    replay({ ...given, ...Object.fromEntries(changed.map((key) => [key, next[key]])) });
  };
  const replay = (nextGiven: Partial<SlimeSettings>) => {
    setGiven(nextGiven);
    replaceSearch(runSettingsToSearch(nextGiven, window.location.search));
    if (!report) return;
    setReplaying(true);
    client
      .replay(nextGiven)
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
      .catch((reason: unknown) => {
        if (!(reason instanceof SupersededError)) setError(String(reason));
      })
      .finally(() => setSearching(false));
  };
  /** The playground, on a state the worker built and encoded (a sample with its dump comparison, or a plain file's lanes). */
  const goToPlayground = (answer: Promise<PlaygroundAnswer>) => {
    answer
      .then((built) => {
        if (!built.ok) setError(`Open in the playground: ${built.message}`);
        else window.location.assign(`${window.location.pathname}${stateFragment(built.encoded)}`);
      })
      .catch((reason: unknown) => setError(`Open in the playground: ${String(reason)}`));
  };
  const openInPlayground = () => goToPlayground(client.sampleInPlayground(selected, settings));
  const openLanes = () => goToPlayground(client.plainInPlayground());
  const failing = useMemo(() => Array.from(report?.samples.failing ?? []), [report]);
  const exportIndices = failing.length > 0 ? failing : [selected];
  const train = report?.kind === "train";

  // The samples table takes a new report in a deferred render, a task after the verdict's: mounted in
  // the verdict's commit, its rows and the virtualizer's first measure made that task the longest of
  // a 512-sample dump's (42–47 ms of CPU). The heatmap's picture is pooled in the run worker (runPictures.ts).
  const tableReport = useDeferredValue(report);
  const heatmapReport = report;
  const sampleReport = report;
  // The KL choice falls back to the advantages on a report that has no KL grid (a dump without kl).
  const shownField: GridField = report?.gridFields.includes(field) ? field : "advantages";
  const replayId = report?.replayId;
  const fileName = report?.fileName ?? "";
  const hasGrid = report?.gridFields.includes(shownField) ?? false;
  const anyGrid = (report?.gridFields.length ?? 0) > 0;
  // The selected sample's every stored field and replayed line, asked again for each report (a replay
  // with other settings replays other lines): the sample's chart and its fields are drawn from them.
  const [fields, setFields] = useState<SampleFieldsAnswer | null>(null);
  const [fieldsProblem, setFieldsProblem] = useState<string | null>(null);
  useEffect(() => {
    if (report?.kind !== "train") return;
    client
      .sampleFields(selected)
      .then((answer) => {
        if (answer.ok) {
          setFields(answer);
          setFieldsProblem(null);
        } else setFieldsProblem(answer.message);
      })
      .catch(() => {}); // superseded by a newer sample's request
  }, [client, selected, report]);
  useEffect(() => {
    if (replayId === undefined || !anyGrid) return;
    client
      .grids()
      .then((answer) => {
        if (!answer.ok) setError(answer.message);
        else if (answer.replay === replayId) setLoadedGrids({ replay: answer.replay, fileName, grids: answer.grids });
      })
      .catch(() => {}); // superseded by a newer report
  }, [client, replayId, fileName, anyGrid]);
  const gridReady = loadedGrids !== null && loadedGrids.replay === replayId;
  const bitsPending = report?.check?.bitsPending ?? false;
  // Asked for once the grids are in: the worker answers in turn, and the sample's fields, asked for
  // when its chart mounts, then come before the seconds of the bits.
  const bitsAsked = bitsPending && (gridReady || !anyGrid);
  // Once per replay: a field switched while they come must not ask for seconds of work again.
  const bitsAskedFor = useRef<number | null>(null);
  useEffect(() => {
    if (replayId === undefined || !bitsAsked || bitsAskedFor.current === replayId) return;
    bitsAskedFor.current = replayId;
    client
      .bits()
      .then((answer) => {
        if (answer.ok && answer.replay === replayId) setLoadedBits(answer);
      })
      .catch((reason: unknown) => {
        // A newer file's worker took over: these bits were the last dump's.
        if (!(reason instanceof SupersededError)) setError(`The bit-for-bit comparison failed (${String(reason)})`);
      });
  }, [client, replayId, bitsAsked]);
  // While the next grids come, the last ones of the same file stay drawn (busy), not a blank.
  const kept =
    loadedGrids?.fileName === report?.fileName && loadedGrids?.grids.advantages?.rows === report?.samples.count
      ? loadedGrids?.grids
      : null;
  const grid = heatmapReport && hasGrid ? ((gridReady ? loadedGrids?.grids : kept)?.[shownField] ?? null) : null;
  const heatmapSource = useMemo(() => gridPictures(client, grid), [client, grid]);
  const heatmapCells = useMemo(
    () => (grid ? (row: number, token: number) => client.cell(grid.pictureId, row, token) : undefined),
    [client, grid],
  );
  // What the heatmap has drawn, known by its grid (its arrays stay in the worker).
  const onHeatmapDrawn = useCallback(() => setHeatmapDrawn(grid), [grid]);
  // The sample's chart and fields take a new grid in a deferred render, a task after the heatmap's
  // mount: the grids' arrival drew the heatmap, the chart and six field charts in one long task.
  const wantedSampleGrid = sampleReport ? grid : null;
  const sampleGrid = useDeferredValue(wantedSampleGrid);
  const bitsReady = loadedBits !== null && loadedBits.replay === replayId;
  const check = useMemo(
    () =>
      report?.check && bitsReady
        ? { ...report.check, bits: loadedBits?.bits ?? null, bitsPending: false }
        : (report?.check ?? null),
    [report, bitsReady, loadedBits],
  );
  // The chart's sample: its rows come with its fields (the page holds no grid); the last sample's stay
  // drawn, busy, until the selected one's come.
  const chartSample = fields?.sample ?? selected;
  const sample = useMemo(() => (fields && sampleGrid ? sampleSeries(fields, sampleGrid) : null), [fields, sampleGrid]);
  const sampleReference = sample && sampleGrid ? chartReference(sampleGrid, sample) : null;
  // What the heatmap and the chart have drawn (the heatmap by its grid, the chart by its reference
  // array): the results stay busy until both show the current report and sample (a sample of no
  // tokens has no line to wait for).
  const [heatmapDrawn, setHeatmapDrawn] = useState<GridInfo | null>(null);
  const [chartDrawn, setChartDrawn] = useState<ArrayLike<number> | null>(null);
  const drawing =
    sampleReport !== report ||
    sampleGrid !== wantedSampleGrid ||
    (hasGrid && !gridReady) ||
    (bitsPending && !bitsReady) ||
    (grid !== null && heatmapDrawn !== grid) ||
    (grid !== null && (fields?.sample !== selected || fields.replay !== replayId)) ||
    (sampleReference !== null && sampleReference.length > 0 && chartDrawn !== sampleReference);
  const selectedRow = report ? sampleRowAt(report.samples, chartSample) : undefined;

  return (
    <div className="run-view">
      <header className="panel run-intro">
        <h1>Your run</h1>
        <p>
          Open a dump slime wrote (<code>--save-debug-train-data</code>: <code>train_data/&lt;id&gt;.pt</code>, and its{" "}
          <code>rollout_data/&lt;id&gt;.pt</code> beside it), or a <code>.npz</code> or <code>.safetensors</code>. No
          settings needed: Scanlab reads them off the dump's own numbers, recomputes every stage (the rewards' group
          normalisation, the KL, the returns, the advantages) in float64, holds every stored value to its float32 bound,
          and names the known bug a dump that departs matches. The file is read here, by a strict reader that runs
          nothing in it, and stays in this browser.
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
        <p className="muted small" data-testid="run-kept">
          A reload keeps the settings (in the address) and, in this tab only, the file(s) you chose: as a reference to
          the file on disk, not a copy, so a file deleted or changed since must be chosen again. Each tab keeps its own.
        </p>
      </header>
      <Note className="notice url-notice" text={[...urlProblems, ...address.problems]} testId="url-notice" />
      <RunFolder
        given={given}
        onOpenStep={(files, keep) => {
          open(files, given, keep);
          // The step opens below the run's table and charts: on a phone, a screen or two away.
          results.current?.scrollIntoView({ block: "start" });
        }}
      />
      {reading ? <RunReading reading={reading} onCancel={() => client.cancelOpen()} /> : null}
      <Note className="error-message" text={keptProblem} testId="run-kept-problem" alert />
      <Note className="error-message" text={error} testId="error-message" alert />
      <div className="run-columns">
        {report && !train ? (
          <RunFileKind report={report} onOpenLanes={openLanes} />
        ) : (
          <RunSettings
            settings={settings}
            source={report?.settingsSource ?? {}}
            estimates={report?.check?.estimates ?? {}}
            onChange={onSettings}
            onSearch={onSearch}
            searching={searching}
            dumpOpen={report !== null}
          />
        )}
        <section
          className="panel run-overview"
          aria-live="polite"
          aria-busy={reading !== null || replaying || drawing}
          data-testid="run-results"
          ref={results}
        >
          <p className="run-summary" data-testid="run-summary">
            {report ? report.summary : "No dump open yet."}
          </p>
          {report && report.kind !== "plain" ? <Glance report={report} /> : null}
          {report ? (
            <p className="muted small" data-testid="run-engine">
              {train
                ? "Every reference value, bound and verdict here is Scanlab's float64 replay of slime's compute_advantages_and_returns (core, serial loops), run in this page's worker; the stored values are slime's float32, read from the dump. "
                : "Read in this page's worker by Scanlab's strict reader; nothing was replayed. "}
              <span data-testid="run-millis">
                read {report.millis.read} ms, settings read off it {report.millis.settings} ms, replay{" "}
                {report.millis.replay} ms
              </span>
            </p>
          ) : null}
          {check ? (
            <RunCheck check={check} onUseInferred={Object.keys(given).length > 0 ? () => replay({}) : null} />
          ) : null}
          {report?.notes.map((note) => (
            <p key={note} className="muted small">
              {note}
            </p>
          ))}
          {trials ? <Trials trials={trials} onUse={onSettings} /> : null}
        </section>
      </div>
      {train && tableReport && tableReport.kind === "train" && tableReport.samples.count > 0 ? (
        <RunSamples table={tableReport.samples} selected={selected} onSelect={setSelected} />
      ) : null}
      {train && grid && heatmapSource ? (
        <section
          className="panel"
          aria-labelledby="run-heatmap-title"
          data-testid="run-heatmap"
          data-field={grid.field}
        >
          <h2 id="run-heatmap-title">{fieldHeading(grid)}</h2>
          <div className="run-field" role="radiogroup" aria-label="Field shown">
            {FIELDS.map((name) => (
              <label
                key={name}
                title={name === "kl" && !report?.gridFields.includes("kl") ? "the dump stores no kl" : undefined}
              >
                <input
                  type="radio"
                  name="run-field"
                  data-testid={`run-field-${name}`}
                  checked={shownField === name}
                  disabled={!report?.gridFields.includes(name)}
                  onChange={() => setField(name)}
                />{" "}
                {name === "kl" ? "KL gap" : FIELD_NAMES[name]}
              </label>
            ))}
          </div>
          <p className="muted small" data-testid="run-heatmap-caption" data-reference={grid.referenceIs}>
            {fieldCaption(grid)}
          </p>
          <ErrorHeatmap
            source={heatmapSource}
            rows={grid.rows}
            cols={grid.cols}
            lengths={grid.lengths}
            cells={heatmapCells}
            hasBound={grid.hasBound}
            chunkBoundaries={NO_BOUNDARIES}
            metric="abs"
            precision="float32"
            selectedRow={selected}
            onSelectRow={setSelected}
            sides={fieldSides(grid)}
            onDrawn={onHeatmapDrawn}
          />
        </section>
      ) : null}
      {train && sample && sampleGrid ? (
        <section className="panel" aria-labelledby="run-sample-title">
          <h2 id="run-sample-title">
            Sample {chartSample}: {FIELD_NAMES[sampleGrid.field]}
          </h2>
          <RunSampleChart
            grid={sampleGrid}
            sample={chartSample}
            rolloutPosition={selectedRow?.rolloutPosition ?? null}
            series={sample}
            onDrawn={setChartDrawn}
          />
          <div className="run-actions">
            <ToolbarButton onClick={openInPlayground} testId="run-open-playground">
              Open this sample in the playground
            </ToolbarButton>
            <span className="muted small">
              {" "}
              to watch Scanlab's own chunked float32 scan of it beside the reference, token by token, with the dump's
              stored values drawn beside them, and from there in the player.
            </span>
          </div>
          <RunExports
            indices={exportIndices}
            failing={failing.length > 0}
            exportCases={(indices) => client.exportCases(indices, settings)}
            exportPytest={(indices) => client.exportPytest(indices, settings)}
          />
        </section>
      ) : null}
      {train && sampleReport && sampleReport.kind === "train" ? (
        <RunSampleFields sample={selected} answer={fields} problem={fieldsProblem} />
      ) : null}
    </div>
  );
}

/** The heatmap's picture of a grid, pooled by the run worker that keeps its measured cells, drawn at once where the client holds it. */
function gridPictures(client: RunClient, grid: GridInfo | null): PictureSource | null {
  if (!grid) return null;
  const id = grid.pictureId;
  return { at: "worker", picture: (ask) => client.picture(id, ask), ready: (ask) => client.heldPicture(id, ask) };
}

/** The sample to show first: the first of the table's worst-first order. */
function worstSample(report: RunReport): number {
  return report.samples.order[0] ?? 0;
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
        {g.rewards
          ? `${formatShort(g.rewards.min)} … ${formatShort(g.rewards.max)} (mean ${formatShort(g.rewards.mean)})`
          : "none stored"}
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
