import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { heldInputs, type Unread, unreadInputs } from "../../io/laneUse";
import type { PlaygroundRow, PlaygroundState } from "../../io/playgroundState";
import { FIRST_VISIT_STATE } from "../../io/presets";
import { linkText } from "../../io/shareLink";
import type { ChartHandle } from "../charts/chartPng";
import { chunkStarts } from "../charts/chunkBoundaries";
import { ContextParallelPanel } from "../contextParallel/ContextParallelPanel";
import type { HeatmapHandle } from "../heatmap/ErrorHeatmap";
import { rowInFocus } from "../player/focusRow";
import { playerAddress } from "../player/playerLink";
import { useQuietAfter } from "../useQuietAfter";
import { outputNames } from "./compute/outputTables";
import { previewable } from "./compute/playgroundRun";
import { StateCodec } from "./compute/stateCodec";
import { ControlsPanel } from "./controls/ControlsPanel";
import { ConventionPanel } from "./conventions/ConventionPanel";
import { useConventions } from "./conventions/useConventions";
import { DumpBanner } from "./DumpBanner";
import { EditorToolbar } from "./editor/EditorToolbar";
import { drawHint } from "./editor/lanes";
import { type EditMode, RowEditor } from "./editor/RowEditor";
import { replaceRow } from "./editor/rowEdits";
import { CaseBar } from "./files/CaseBar";
import { copyText } from "./files/download";
import { saveCaseFile } from "./files/saveCaseFile";
import { useImport } from "./files/useImport";
import { MessageArea } from "./MessageArea";
import { PlaygroundIntro } from "./PlaygroundIntro";
import { type LinkStatus, PlaygroundToolbar } from "./PlaygroundToolbar";
import { addressWith, linkSize, type Startup, sizeText, startupState } from "./persistence";
import { HoverReadout } from "./results/HoverReadout";
import { OUTPUT_LABELS } from "./results/labels";
import { nonFiniteInputNote } from "./results/nonFiniteReport";
import { ResultsBoundary } from "./results/ResultsBoundary";
import { chunkStartsOf, type Hover, ResultsPanel } from "./results/ResultsPanel";
import { readoutAt } from "./results/readout";
import { SummaryPanel } from "./results/SummaryPanel";
import { loadIndexedSession } from "./sessionStore";
import { startEngineEarly, useEngines } from "./useEngines";
import { useKeptSession } from "./useKeptSession";
import { usePersistence } from "./usePersistence";
import { behindNote, resultIsOf, usePlaygroundCompute } from "./usePlaygroundCompute";
import { rowsOf, usePlaygroundStore } from "./usePlaygroundStore";
import { useUndoKeys } from "./useUndoKeys";
import "./playground.css";

export interface PlaygroundViewProps {
  /** The top bar's slot for this view's actions (examples, import, export, share). */
  toolbarSlot: HTMLElement | null;
  urlProblems: string[];
}

/** Set once the user has drawn or typed a value: the editor's hint is then never shown again. */
const HINT_KEY = "scanlab.hint.draw";

const TOO_LARGE_FOR_LINK: LinkStatus = {
  text: "Too large for a link: the address holds no data; a case file carries it",
  offerCase: true,
};

function worthSaying(unread: Unread | null, userRows: boolean): Unread | null {
  return unread && (unread.onZeros || userRows) ? unread : null;
}

/** The address of an encoded state here: this page's query (view, …) and the state in the fragment. */
function addressText(encoded: string): string {
  const { search, hash } = addressWith(encoded, window.location.search);
  return `${search}${hash}`;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function readStartup(): Startup {
  return startupState(window.location.search, storage(), window.location.hash);
}

// The first visit's state is read as this module loads, and its engine started then, so that the
// worker comes up while the view first renders; the first mount takes both over (same address).
let firstStartup: { href: string; startup: Startup } | null = null;
if (typeof window !== "undefined") {
  const startup = readStartup();
  firstStartup = { href: window.location.href, startup };
  startEngineEarly(startup.state.backend);
}

function takeStartup(): Startup {
  const first = firstStartup;
  firstStartup = null;
  return first && first.href === window.location.href ? first.startup : readStartup();
}

/**
 * The playground: draw or import rewards, KL, masks and values; see the chunked scan against the
 * float64 serial reference, token by token. Data → algorithm → output, left to right.
 */
export function PlaygroundView({ toolbarSlot, urlProblems }: PlaygroundViewProps) {
  const [startup] = useState(takeStartup);
  const store = usePlaygroundStore(() => startup.state);
  const { state, committed, rows } = store;
  const [codec] = useState(() => new StateCodec());
  const [startupError, setStartupError] = useState<string | null>(startup.error);
  const [actionError, setActionError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [restoring, setRestoring] = useState(startup.pending?.source ?? null);
  const [mode, setMode] = useState<EditMode>("draw");
  const [hover, setHoverState] = useState<Hover | null>(null);
  // The same token reported twice is no change (views report on every data update).
  const setHover = useCallback((next: Hover | null) => {
    setHoverState((old) => (old?.row === next?.row && old?.token === next?.token ? old : next));
  }, []);
  // The editor's hint shows until the user acts (draws, imports, loads an example, edits a setting);
  // once they have drawn or typed a value it never comes back (HINT_KEY).
  const [showHint, setShowHint] = useState(() => storage()?.getItem(HINT_KEY) === null);
  const stepAside = useCallback(() => setShowHint(false), []);
  /** The editor has been used: the hint is not shown on later visits. */
  const rememberHintUsed = useCallback(() => {
    try {
      storage()?.setItem(HINT_KEY, "used");
    } catch {
      // Without storage the hint simply comes back next visit.
    }
  }, []);
  const dismissHint = useCallback(() => {
    setShowHint(false);
    rememberHintUsed();
  }, [rememberHintUsed]);
  const returnsRef = useRef<ChartHandle>(null);
  const errorRef = useRef<ChartHandle>(null);
  const heatmapRef = useRef<HeatmapHandle>(null);

  const { engine, core, report, notice } = useEngines(startup.state.backend, committed.backend);
  useEffect(() => () => codec.dispose(), [codec]);

  // A link or session too large to decode here at startup is decoded in the codec worker.
  const { edit } = store;
  // What the user changes (a setting, a row, an example): the hint steps aside. The startup and link
  // decodes above and below use `edit` itself, which is no action of the user's.
  const userEdit = useCallback(
    (change: (state: PlaygroundState) => PlaygroundState) => {
      stepAside();
      edit(change);
    },
    [edit, stepAside],
  );
  const { setView } = store;
  const userSetView = useCallback(
    (view: Parameters<typeof setView>[0]) => {
      stepAside();
      setView(view);
    },
    [setView, stepAside],
  );
  const kept = useKeptSession(startup, codec, store.keepBehind, committed, setStartupError);
  const { linkOpened } = kept;
  useEffect(() => {
    const pending = startup.pending;
    if (!pending) return;
    const text = pending.text !== null ? Promise.resolve({ text: pending.text }) : loadIndexedSession();
    text
      .then((found) =>
        "text" in found ? codec.decode(found.text, pending.source) : { ok: false as const, message: found.error },
      )
      .then((answer) => {
        if (!answer.ok) return setStartupError(answer.message);
        edit(() => answer.state);
        // The session shown meanwhile is now one undo away.
        if (pending.source === "Shared link" && startup.replaced !== null) linkOpened(answer.state);
      })
      .finally(() => setRestoring(null));
  }, [startup, codec, edit, linkOpened]);

  // A link pasted into this tab that differs only in its fragment does not reload the page: open it here.
  useEffect(() => {
    const onHashChange = () => {
      const text = linkText(window.location.search, window.location.hash);
      if (text === null) return;
      setRestoring("Shared link");
      codec
        .decode(text, "Shared link")
        .then((answer) => {
          if (!answer.ok) return setStartupError(answer.message);
          edit(() => answer.state);
          linkOpened(answer.state);
        })
        .finally(() => setRestoring(null));
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [codec, edit, linkOpened]);

  const { linkTooLong, saveError } = usePersistence(committed, codec, restoring !== null || kept.keeping);

  const draft = useMemo(() => (store.drawing ? { state, rows: rowsOf(state.data) } : null), [store.drawing, state]);
  const compute = usePlaygroundCompute(engine, core, committed, rowsOf(committed.data), draft, report);
  const { result, busy } = compute;
  // Grey while the figures are not of the inputs in the editor (a stroke's draft included); core's
  // result of them is not grey.
  const ofInputs = result !== null && resultIsOf(result, state);
  const stale = compute.computing && !ofInputs;
  // The conventions run once the page's own run of the committed state has ended and its result is
  // drawn, and no stroke is going on: the engine takes one request at a time, and on a 2-core machine
  // their workers would otherwise share the cores with the result's drawing. (`settled`, not just
  // `!busy`: in the commit of an edit the page's run has not started yet; quiet: the heatmap pools
  // and draws a result it has taken in tasks of its own.)
  const pageQuiet = useQuietAfter(compute.settled && !busy && !store.drawing);
  const conventions = useConventions(
    engine,
    committed,
    rowsOf(committed.data),
    pageQuiet,
    Math.min(state.selectedRow, rows.length - 1),
  );

  const selectedRow = Math.min(state.selectedRow, rows.length - 1);
  // What is charted follows the result on screen (it may be of an older estimator while a new run computes).
  const resultKind = result?.kind ?? committed.estimator;
  const output = resultKind === "gae" ? state.output : outputNames(resultKind)[0];
  const resultRows = result ? rowsOf(result.input.data) : rows;
  const cols = rows.reduce((max, r) => Math.max(max, r.length), 0);
  const editorStarts = useMemo(
    () =>
      state.precision === "float32-engine" && state.strategy === "per-token"
        ? []
        : chunkStarts(cols, state.chunkSize).filter((t) => t > 0),
    [cols, state.chunkSize, state.precision, state.strategy],
  );
  const resultStarts = useMemo(() => (result ? chunkStartsOf(result) : []), [result]);
  const readout = useMemo(
    () => (result && hover ? readoutAt(result, resultRows, output, resultStarts, hover.row, hover.token) : null),
    [result, hover, resultRows, output, resultStarts],
  );

  const onFieldError = useCallback((id: string, reason: string | null) => {
    setFieldErrors((errors) => {
      if ((errors[id] ?? null) === reason) return errors;
      const next = { ...errors };
      if (reason === null) delete next[id];
      else next[id] = reason;
      return next;
    });
  }, []);
  const selectRow = useCallback((row: number) => store.setView({ selectedRow: row }), [store.setView]);
  // A state loaded (an example, an import, a case) replaces whatever the last failed action said.
  const load = useCallback(
    (next: PlaygroundState) => {
      setFieldErrors({});
      setActionError(null);
      userEdit(() => next);
    },
    [userEdit],
  );
  useUndoKeys(store.undo, store.redo);
  const latest = useRef({ state: committed, rows: rowsOf(committed.data) });
  latest.current = { state: committed, rows: rowsOf(committed.data) };
  const current = useCallback(() => latest.current, []);
  const imports = useImport(current, load, setActionError, codec);
  const [linkStatus, setLinkStatus] = useState<LinkStatus | null>(null);
  // A file dropped anywhere on the page is imported (the Import menu's zone is only the obvious place).
  const onFile = imports.onFile;
  useEffect(() => {
    const onDragOver = (event: DragEvent) => {
      if (event.dataTransfer?.types.includes("Files")) event.preventDefault();
    };
    const onDrop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (!file || event.defaultPrevented) return;
      event.preventDefault();
      onFile(file);
    };
    window.addEventListener("dragover", onDragOver);
    window.addEventListener("drop", onDrop);
    return () => {
      window.removeEventListener("dragover", onDragOver);
      window.removeEventListener("drop", onDrop);
    };
  }, [onFile]);
  const copyLink = () => {
    codec
      .encode(committed)
      .then(async (encoded) => {
        const url = `${window.location.origin}${window.location.pathname}${addressText(encoded)}`;
        const size = linkSize(url.length);
        if (size === "too large") {
          setLinkStatus({
            text: `No link copied: this batch makes a ${sizeText(url.length)} link, more than a browser opens. A case file carries it`,
            offerCase: true,
          });
          return;
        }
        const copied = await copyText(url);
        const done = copied ? "Link copied" : "The clipboard is not available: copy the address bar";
        setLinkStatus(
          size === "long"
            ? {
                text: `${done} (${sizeText(url.length)}, long to paste; a case file carries the same batch)`,
                offerCase: true,
              }
            : { text: done, offerCase: false },
        );
      })
      .catch(() => {});
  };
  const onStatus = useCallback((text: string) => setLinkStatus({ text, offerCase: false }), []);
  const saveCase = () => {
    saveCaseFile(codec, committed)
      .then((status) => setLinkStatus({ text: status, offerCase: false }))
      .catch((reason: unknown) =>
        setActionError(`Case export: ${reason instanceof Error ? reason.message : String(reason)}`),
      );
  };

  const openInPlayer = () => {
    // A batch larger than the player replays goes as the row in focus (the player says which).
    const { state: sent, focus } = rowInFocus(committed);
    codec
      .encode(sent)
      .then((encoded) => {
        if (linkSize(encoded.length) === "too large") {
          setActionError(
            `Open in player: this batch makes a ${sizeText(encoded.length)} link, more than a browser opens; the player is made for teaching sizes (a few rows of up to 4096 tokens).`,
          );
          return;
        }
        window.location.assign(`${window.location.pathname}${playerAddress(sent, encoded, focus)}`);
      })
      .catch(() => {});
  };

  // Stable callbacks: the panels are memoised, so a stroke or a result redraws only what changed.
  const { setDraft } = store;
  const onDraftRow = useCallback(
    (row: PlaygroundRow) => setDraft(replaceRow(committed, rowsOf(committed.data), selectedRow, row)),
    [setDraft, committed, selectedRow],
  );
  const onEditRow = useCallback(
    (row: PlaygroundRow) => {
      dismissHint();
      edit((s) => replaceRow(s, rowsOf(s.data), selectedRow, row));
    },
    [edit, selectedRow, dismissHint],
  );
  const onEditorHover = useCallback(
    (token: number | null) => setHover(token === null ? null : { row: selectedRow, token }),
    [setHover, selectedRow],
  );
  // A stroke's hint goes when the stroke ends: gone at its start, the line it took would move the
  // lanes under the pointer (on a narrow screen the hint has a line of its own).
  const { commitDraft } = store;
  const onCommitDraft = useCallback(() => {
    commitDraft();
    stepAside();
  }, [commitDraft, stepAside]);
  const onExactInvalid = useCallback((reason: string | null) => onFieldError("exact", reason), [onFieldError]);
  const onWorstCell = useCallback(
    (row: number, token: number) => {
      selectRow(row);
      heatmapRef.current?.focusCell(row, token);
    },
    [selectRow],
  );
  const committedRows = rowsOf(committed.data);
  // The presets fill every lane so that any estimator has inputs: their unread lanes are no news,
  // while rows drawn or imported by the user are (and so is computing on zeros, whatever the source).
  const held = useMemo(() => heldInputs(committedRows), [committedRows]);
  const userRows = committed.data.source === "inline";
  const scanUnread = worthSaying(unreadInputs("scan", committed.estimator, held), userRows);
  const conventionsUnread = useMemo(
    () => worthSaying(unreadInputs("conventions", committed.estimator, held), userRows),
    [committed.estimator, held, userRows],
  );
  const nonFiniteNote = useMemo(
    () => nonFiniteInputNote(committedRows, committed.estimator),
    [committedRows, committed.estimator],
  );
  // While a stroke lasts, the recomputed row is drawn in the editor itself. A teaching-size batch
  // is computed whole as the pointer moves, the row read off core's result of the draft; at big
  // sizes the row alone is recomputed, and the charts and the heatmap wait for the release.
  const liveOutput = useMemo(() => {
    if (!store.drawing) return null;
    if (result?.input.data === state.data && selectedRow < result.rows) {
      const start = selectedRow * result.cols;
      return result.chunked[output]?.subarray(start, start + result.lengths[selectedRow]) ?? null;
    }
    const live = compute.liveRow?.row === selectedRow ? compute.liveRow : null;
    return live?.chunked[output]?.subarray(0, live.length) ?? null;
  }, [store.drawing, result, state.data, compute.liveRow, output, selectedRow]);
  const addressProblems = useMemo(() => [...urlProblems, ...startup.notices], [urlProblems, startup]);

  const errors = [
    startupError,
    saveError,
    compute.error,
    conventions.error,
    actionError,
    ...Object.values(fieldErrors),
  ].filter((e): e is string => Boolean(e));
  return (
    <div className="playground">
      {toolbarSlot
        ? createPortal(
            <PlaygroundToolbar
              state={committed}
              rows={rowsOf(committed.data)}
              result={result}
              codec={codec}
              target={imports.target}
              onTarget={imports.setTarget}
              onFile={imports.onFile}
              onLoad={(next) => {
                imports.forget();
                load(next);
              }}
              onReset={() => {
                imports.forget();
                load(FIRST_VISIT_STATE);
              }}
              onCopyLink={copyLink}
              onOpenInPlayer={openInPlayer}
              linkStatus={linkStatus ?? (linkTooLong ? TOO_LARGE_FOR_LINK : null)}
              onSaveCase={saveCase}
              onError={setActionError}
              onStatus={onStatus}
              charts={{ returns: returnsRef, error: errorRef, heatmap: heatmapRef }}
            />,
            toolbarSlot,
          )
        : null}
      <PlaygroundIntro backend={committed.backend} />
      <aside className="pg-left" aria-label="Settings">
        <ControlsPanel
          state={committed}
          rows={committedRows}
          report={report}
          edit={userEdit}
          setView={userSetView}
          fieldErrors={fieldErrors}
          onFieldError={onFieldError}
        />
      </aside>
      <div className="pg-centre">
        <MessageArea
          errors={errors}
          notice={notice}
          notes={imports.notes}
          nonFiniteNote={nonFiniteNote}
          urlProblems={addressProblems}
          restoring={restoring}
          question={imports.question}
          reading={imports.reading}
          laneNotice={scanUnread?.text ?? null}
          sessionKept={kept.note}
        />
        {committed.dump ? (
          <DumpBanner dump={committed.dump} onDismiss={() => store.setView({ dump: undefined })} />
        ) : null}
        {imports.caseFile ? (
          <CaseBar
            caseFile={imports.caseFile}
            result={result}
            computing={compute.computing}
            onOpen={imports.openCaseAt}
            onClose={imports.closeCaseFile}
          />
        ) : null}
        <section className="panel editor-panel" aria-label="Reward editor">
          <EditorToolbar
            state={committed}
            rows={committedRows}
            mode={mode}
            onMode={setMode}
            edit={userEdit}
            onSelectRow={selectRow}
            onError={setActionError}
            fieldErrors={fieldErrors}
            onFieldError={onFieldError}
            canUndo={store.canUndo}
            canRedo={store.canRedo}
            onUndo={store.undo}
            onRedo={store.redo}
            hint={showHint && rows[selectedRow]?.length ? drawHint(state.estimator, mode) : null}
          />
          <RowEditor
            row={rows[selectedRow]}
            rowIndex={selectedRow}
            cols={cols}
            estimator={state.estimator}
            boundaries={editorStarts}
            mode={mode}
            hover={hover && hover.row === selectedRow ? hover.token : null}
            onHover={onEditorHover}
            onDraft={onDraftRow}
            onCommitDraft={onCommitDraft}
            onEdit={onEditRow}
            onInvalid={onExactInvalid}
            onFirstUse={rememberHintUsed}
            liveOutput={liveOutput}
            liveLabel={`${OUTPUT_LABELS[output]}, live`}
          />
        </section>
        <section
          className={`panel results-panel${stale ? " stale" : ""}`}
          aria-label="Results"
          aria-busy={busy}
          data-testid="results"
          data-run={compute.runs}
          data-drawn={compute.draws}
          data-source={compute.source ?? undefined}
        >
          {result ? (
            <ResultsBoundary resetKey={result} onFailure={() => compute.drawn(result)}>
              <ResultsPanel
                result={result}
                rows={resultRows}
                selectedRow={Math.min(selectedRow, result.rows - 1)}
                output={output}
                metric={state.errorMetric}
                scope={state.errorScope === "row" ? "row" : "batch"}
                chunkStarts={resultStarts}
                hover={hover}
                onHover={setHover}
                onSelectRow={selectRow}
                returnsRef={returnsRef}
                errorRef={errorRef}
                heatmapRef={heatmapRef}
                dump={committed.dump}
                onDrawn={compute.drawn}
                large={!previewable(resultRows)}
                behindNote={behindNote(compute)}
              />
            </ResultsBoundary>
          ) : (
            <p className="muted placeholder">
              {compute.computing ? "Computing the first result…" : "Waiting for the engine…"}
            </p>
          )}
        </section>
        {committed.estimator !== "discounted" ? (
          <ConventionPanel
            status={conventions}
            rows={committedRows}
            selectedRow={selectedRow}
            hover={hover}
            onHover={setHover}
            onSelectRow={selectRow}
            unread={conventionsUnread}
          />
        ) : null}
        <ContextParallelPanel
          row={committedRows[selectedRow]}
          rowIndex={selectedRow}
          settings={committed}
          cp={committed.contextParallel}
          userRows={userRows}
          onCp={(contextParallel) => userSetView({ contextParallel })}
        />
      </div>
      <aside className="pg-right" aria-label="Summary and readout">
        <SummaryPanel
          result={result}
          status={compute}
          precision={committed.precision}
          current={ofInputs}
          onWorstCell={onWorstCell}
        />
        <HoverReadout lines={readout} />
      </aside>
    </div>
  );
}
