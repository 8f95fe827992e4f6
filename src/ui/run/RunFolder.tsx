import { type DragEvent, useCallback, useEffect, useRef, useState } from "react";
import type { SlimeSettings } from "../../core";
import type { RunStepPlan, StepSummary, UnusedFile } from "../../io/slimeDump";
import { RunStepCharts } from "./RunStepCharts";
import "./runFolder.css";
import { RunFolderClient } from "../../compute/run/runFolderClient";
import type { RunFile, RunFolderEvent } from "../../compute/run/runWorker";
import { Note } from "../Note";
import { type RunStepRow, RunSteps } from "./RunSteps";
import {
  type DirectoryHandle,
  filesFromEntry,
  filesFromHandle,
  filesFromInput,
  type RunFolderFiles,
} from "./runFolderFiles";
import { canKeepFolders, folderPermission, forgetFolder, keepFolder, keptFolder, pickFolder } from "./runFolderStore";

interface Progress {
  done: number;
  total: number;
  bytesDone: number;
  totalBytes: number;
  startedAt: number;
  now: number;
}

/** The attribute React's types lack: the input then chooses a folder, every file below it with its path. */
const FOLDER_INPUT = { webkitdirectory: "", directory: "" } as Record<string, string>;

/**
 * A run directory (slime's `--dump-details DIR`) opened whole: chosen with the folder input, dropped,
 * or (Chromium) picked and kept so a reload reopens it. Its steps are read in a worker of their own,
 * one at a time, each row shown as it is read, with progress and Cancel; a step's row opens it in the
 * step view below (`onOpenStep`). Every file not used is listed with why.
 */
export function RunFolder({
  given,
  onOpenStep,
}: {
  given: Partial<SlimeSettings>;
  onOpenStep(files: RunFile[], keep: File[] | null): void;
}) {
  const [client] = useState(() => new RunFolderClient());
  useEffect(() => () => client.dispose(), [client]);
  // The first worker started when the user reaches for a folder (the pointer, the keyboard or a
  // drag on this panel): its module is then loaded while the folder is chosen, not before the first
  // step's row (about 100 ms of run50's first row), and a page that never opens a folder holds no
  // second worker (6-9 MB more at ppo512's peak when started with the view).
  const warm = () => client.warm();
  const [folder, setFolder] = useState<string | null>(null);
  const [plan, setPlan] = useState<RunStepPlan[]>([]);
  const [rows, setRows] = useState<(RunStepRow | null)[]>([]);
  const [unused, setUnused] = useState<UnusedFile[]>([]);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [running, setRunning] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [keptNote, setKeptNote] = useState<string | null>(null);
  const [reopen, setReopen] = useState<DirectoryHandle | null>(null);
  const [dropping, setDropping] = useState(false);
  const files = useRef<Map<string, RunFile>>(new Map());
  const givenRef = useRef(given);
  givenRef.current = given;

  const start = useCallback(
    (read: RunFolderFiles, kept: string | null) => {
      files.current = new Map(read.files.map((f) => [f.name, f]));
      setFolder(read.folder || "the files dropped");
      setPlan([]);
      setRows([]);
      setUnused(read.unused);
      setMessage(null);
      setKeptNote(kept);
      setRunning(true);
      const onEvent = (event: RunFolderEvent) => {
        if (event.type === "plan") {
          setPlan(event.steps);
          setRows(event.steps.map(() => null));
          setUnused((before) => [...before, ...event.unused]);
          const now = performance.now();
          setProgress({
            done: 0,
            total: event.steps.length,
            bytesDone: 0,
            totalBytes: event.totalBytes,
            startedAt: now,
            now,
          });
          return;
        }
        const row: RunStepRow = { summary: event.summary, notes: event.notes, openable: false };
        setRows((before) => before.map((r, i) => (i === event.index ? row : r)));
        if (event.unused.length > 0) setUnused((before) => [...before, ...event.unused]);
        setProgress((p) =>
          p ? { ...p, done: p.done + 1, bytesDone: p.bytesDone + event.bytes, now: performance.now() } : p,
        );
      };
      client
        .summarise(read.files, givenRef.current, onEvent)
        .catch((reason: unknown) => {
          const cancelled = reason instanceof Error && reason.message === "cancelled";
          setMessage(
            cancelled ? "Cancelled: the steps read so far are shown." : `The run could not be read (${String(reason)})`,
          );
        })
        .finally(() => setRunning(false));
    },
    [client],
  );

  const openHandle = useCallback(
    (handle: DirectoryHandle, keep: boolean) => {
      setReopen(null);
      (keep ? keepFolder(handle) : Promise.resolve(null))
        .then(async (kept) =>
          start(await filesFromHandle(handle), kept ?? "Kept in this browser: a reload reopens this folder."),
        )
        .catch((reason: unknown) =>
          setMessage(`The folder ${handle.name} can no longer be read (${String(reason)}); choose it again`),
        );
    },
    [start],
  );

  // A folder kept from before (Chromium): reopened at once where read permission still holds, else on one click.
  useEffect(() => {
    if (!canKeepFolders()) return;
    keptFolder().then(async (handle) => {
      if (!handle) return;
      if (await folderPermission(handle, false).catch(() => false)) openHandle(handle, false);
      else setReopen(handle);
    });
  }, [openHandle]);

  const onPick = () => {
    pickFolder()
      .then((handle) => handle && openHandle(handle, true))
      .catch((reason: unknown) => setMessage(`The folder could not be opened (${String(reason)})`));
  };

  const onReopen = (handle: DirectoryHandle) => {
    folderPermission(handle, true)
      .then((granted) =>
        granted
          ? openHandle(handle, false)
          : setMessage(`Reading ${handle.name} was not allowed; choose the folder again`),
      )
      .catch((reason: unknown) => setMessage(`The folder ${handle.name} can no longer be read (${String(reason)})`));
  };

  /** A folder chosen by the input or dropped is not kept: the one kept before is forgotten, so a reload does not open another run. */
  const startUnkept = (read: RunFolderFiles) => {
    void forgetFolder();
    start(read, notKept);
  };

  const notKept = canKeepFolders()
    ? "A folder chosen here is not kept: a reload needs it again (Open run folder… keeps it)."
    : "This browser cannot keep a folder: a reload needs the folder again.";

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDropping(false);
    // The entries are taken now: the drop's items are gone once the event returns.
    const entries = [...event.dataTransfer.items].map((item) => item.webkitGetAsEntry?.() ?? null);
    const dir = entries.find((e): e is FileSystemDirectoryEntry => e?.isDirectory === true);
    if (dir) {
      filesFromEntry(dir)
        .then(startUnkept)
        .catch((reason: unknown) => setMessage(`The dropped folder could not be read (${String(reason)})`));
    } else if (event.dataTransfer.files.length > 0) {
      startUnkept(filesFromInput(event.dataTransfer.files));
    }
  };

  const openStep = (step: number) => {
    const planned = plan.find((p) => p.step === step);
    if (!planned) return;
    const chosen = [...planned.train, ...(planned.rollout ? [planned.rollout] : [])]
      .map((path) => files.current.get(path))
      .filter((f): f is RunFile => f !== undefined);
    const kept = chosen.map((f) => f.blob).filter((b): b is File => b instanceof File);
    onOpenStep(chosen, kept.length === chosen.length ? kept : null);
  };

  const shown = rows.flatMap((row, i) =>
    row ? [{ ...row, openable: plan[i]?.format === "gathered" && row.summary.verdict !== "not checked" }] : [],
  );
  const summaries: StepSummary[] = shown.map((r) => r.summary);
  const counts = { passed: 0, failed: 0, notChecked: 0 };
  for (const s of summaries) {
    if (s.verdict === "passed") counts.passed++;
    else if (s.verdict === "failed") counts.failed++;
    else counts.notChecked++;
  }

  return (
    <section
      className={`panel run-folder${dropping ? " dropping" : ""}`}
      aria-labelledby="run-folder-title"
      aria-busy={running}
      data-testid="run-folder"
      onPointerEnter={warm}
      onFocus={warm}
      onDragOver={(event) => {
        event.preventDefault();
        warm();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={onDrop}
    >
      <h2 id="run-folder-title">A whole run</h2>
      <p className="muted small">
        Choose or drop the folder slime wrote with <code>--dump-details</code>: every{" "}
        <code>train_data/&lt;id&gt;.pt</code> is paired with its <code>rollout_data/&lt;id&gt;.pt</code> and checked
        step by step.
      </p>
      <div className="run-folder-controls">
        <label className="run-file">
          Run folder{" "}
          <input
            type="file"
            {...FOLDER_INPUT}
            data-testid="run-folder-input"
            onChange={(event) => {
              const list = event.currentTarget.files;
              if (list && list.length > 0) startUnkept(filesFromInput(list));
              event.currentTarget.value = "";
            }}
          />
        </label>
        {canKeepFolders() ? (
          <button type="button" onClick={onPick} data-testid="run-folder-pick">
            Open run folder…
          </button>
        ) : null}
        {reopen ? (
          <button type="button" onClick={() => onReopen(reopen)} data-testid="run-folder-reopen">
            Reopen {reopen.name}
          </button>
        ) : null}
      </div>
      {progress && (running || progress.done < progress.total) ? <RunProgress progress={progress} /> : null}
      {running ? (
        <button type="button" onClick={() => client.cancel()} data-testid="run-folder-cancel">
          Cancel
        </button>
      ) : null}
      <Note className="error-message" text={message} testId="run-folder-message" alert />
      {folder ? (
        <p className="run-summary" data-testid="run-folder-summary">
          {folder}: {plan.length} step{plan.length === 1 ? "" : "s"}
          {summaries.length > 0
            ? `, ${counts.passed} passed, ${counts.failed} failed${counts.notChecked > 0 ? `, ${counts.notChecked} not checked` : ""}`
            : ""}
          {running ? ` (reading…)` : ""}
        </p>
      ) : null}
      {keptNote ? <p className="muted small">{keptNote}</p> : null}
      {shown.length > 0 ? (
        <>
          <RunSteps rows={shown} onOpen={openStep} />
          <StepReasons rows={shown} />
          <p className="muted small">
            A step's number opens it below, sample by sample. Steps in slime's first (per-rank) format are summarised
            here; open them with <code>scanlab dump</code>.
          </p>
          <RunStepCharts steps={summaries} />
        </>
      ) : null}
      {unused.length > 0 ? (
        <details className="run-unused" data-testid="run-folder-unused" open={unused.length <= 5}>
          <summary>
            {unused.length} file{unused.length === 1 ? "" : "s"} not used
          </summary>
          <ul>
            {unused.map((u) => (
              <li key={u.path}>
                <code>{u.path}</code>: {u.why}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** Why each step failed or was not checked, and what reading it said: in words under the table, not only in a tooltip. */
function StepReasons({ rows }: { rows: readonly RunStepRow[] }) {
  const said = rows.filter((r) => r.summary.why || r.notes.length > 0);
  if (said.length === 0) return null;
  return (
    <ul className="run-step-reasons small" data-testid="run-step-reasons">
      {said.map(({ summary: s, notes }) => (
        <li key={s.step}>
          step {s.step}: {[s.why, ...notes].filter(Boolean).join("; ")}
        </li>
      ))}
    </ul>
  );
}

function RunProgress({ progress: p }: { progress: Progress }) {
  const seconds = (p.now - p.startedAt) / 1000;
  const rate = seconds > 0 ? p.bytesDone / seconds : 0;
  const left = rate > 0 ? (p.totalBytes - p.bytesDone) / rate : null;
  return (
    <div className="run-progress" data-testid="run-folder-progress">
      <progress max={p.total} value={p.done} />
      <span className="small">
        {p.done} of {p.total} steps read
        {rate > 0 ? ` · ${(rate / 1e6).toFixed(1)} MB/s` : ""}
        {left !== null ? ` · about ${Math.ceil(left)} s left` : ""}
      </span>
    </div>
  );
}
