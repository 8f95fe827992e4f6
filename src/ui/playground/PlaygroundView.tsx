import { useCallback, useMemo, useRef, useState } from "react";
import { createPortal } from "react-dom";
import { drawHint } from "../../compute/playground/lanes";
import { OUTPUT_LABELS } from "../../compute/playground/outputLabels";
import { outputNames } from "../../compute/playground/outputTables";
import { previewable } from "../../compute/playground/playgroundRun";
import { behindNote, resultIsOf } from "../../compute/playground/runInputs";
import type { PlaygroundState } from "../../io/playgroundState";
import { FIRST_VISIT_STATE } from "../../io/presets";
import type { ChartHandle } from "../charts/chartPng";
import { chunkStarts } from "../charts/chunkBoundaries";
import { ContextParallelPanel } from "../contextParallel/ContextParallelPanel";
import type { HeatmapHandle } from "../heatmap/ErrorHeatmap";
import { ControlsPanel } from "./controls/ControlsPanel";
import { ConventionPanel } from "./conventions/ConventionPanel";
import { useConventions } from "./conventions/useConventions";
import { DumpBanner } from "./DumpBanner";
import { EditorToolbar } from "./editor/EditorToolbar";
import { type EditMode, RowEditor } from "./editor/RowEditor";
import { CaseBar } from "./files/CaseBar";
import { useImport } from "./files/useImport";
import { MessageArea } from "./MessageArea";
import { PlaygroundIntro } from "./PlaygroundIntro";
import { PlaygroundToolbar } from "./PlaygroundToolbar";
import { HoverReadout } from "./results/HoverReadout";
import { ResultsBoundary } from "./results/ResultsBoundary";
import { chunkStartsOf, ResultsPanel } from "./results/ResultsPanel";
import { SummaryPanel } from "./results/SummaryPanel";
import { useEngines } from "./useEngines";
import { useHint } from "./useHint";
import { useHover } from "./useHover";
import { useLaneNotes } from "./useLaneNotes";
import { usePageDrop } from "./usePageDrop";
import { pageErrorLines, usePageErrors } from "./usePageErrors";
import { usePlaygroundCompute } from "./usePlaygroundCompute";
import { usePlaygroundSession } from "./usePlaygroundSession";
import { rowsOf } from "./usePlaygroundStore";
import { useRowEditing } from "./useRowEditing";
import { useShareActions } from "./useShareActions";
import { useUserEdits } from "./useUserEdits";
import "./playground.css";

export interface PlaygroundViewProps {
  /** The top bar's slot for this view's actions (examples, import, export, share). */
  toolbarSlot: HTMLElement | null;
  urlProblems: string[];
}

/**
 * The playground: draw or import rewards, KL, masks and values; see the chunked scan against the
 * float64 serial reference, token by token. Data → algorithm → output, left to right. This is the
 * layout; each concern is a hook of its own: the session (usePlaygroundSession), the runs
 * (usePlaygroundCompute, useConventions), imports (useImport, usePageDrop), sharing
 * (useShareActions), the editor's hint (useHint) and wiring (useRowEditing), the hovered token
 * (useHover), and what the page says (usePageErrors, useLaneNotes).
 */
export function PlaygroundView({ toolbarSlot, urlProblems }: PlaygroundViewProps) {
  const session = usePlaygroundSession();
  const { startup, store, codec } = session;
  const { state, committed, rows } = store;
  const errors = usePageErrors();
  const hint = useHint();
  const [mode, setMode] = useState<EditMode>("draw");
  const returnsRef = useRef<ChartHandle>(null);
  const errorRef = useRef<ChartHandle>(null);
  const heatmapRef = useRef<HeatmapHandle>(null);
  const { engine, worker, report, notice } = useEngines(startup.state.backend, committed.backend);

  const { edit: userEdit, setView: userSetView } = useUserEdits(store, hint.stepAside);
  const { setView } = store;

  const draft = useMemo(() => (store.drawing ? { state, rows: rowsOf(state.data) } : null), [store.drawing, state]);
  const compute = usePlaygroundCompute(engine, worker, committed, rowsOf(committed.data), draft, report);
  const { result, busy } = compute;
  // Grey while the figures are not of the inputs in the editor (a stroke's draft included); core's
  // result of them is not grey.
  const ofInputs = result !== null && resultIsOf(result, state);
  const stale = compute.computing && !ofInputs;
  const selectedRow = Math.min(state.selectedRow, rows.length - 1);
  // The conventions wait while the page's own result of the committed state is computed and drawn,
  // or a stroke goes on: their workers share the 2 cores with it (run alongside, a 16 × 8192 λ step
  // took 190 ms against 90). The engine's queue orders their requests; this orders the CPU.
  const pageDone =
    !busy && !store.drawing && ((result !== null && resultIsOf(result, committed)) || compute.error !== null);
  const conventions = useConventions(engine, committed, rowsOf(committed.data), !pageDone, selectedRow);

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
  const { hover, setHover, readout } = useHover(result, resultRows, output, resultStarts);

  const selectRow = useCallback((row: number) => setView({ selectedRow: row }), [setView]);
  // A state loaded (an example, an import, a case) replaces whatever the last failed action said.
  const { clear: clearErrors, setActionError, fieldErrors, onFieldError } = errors;
  const load = useCallback(
    (next: PlaygroundState) => {
      clearErrors();
      userEdit(() => next);
    },
    [clearErrors, userEdit],
  );
  const latest = useRef({ state: committed, rows: rowsOf(committed.data) });
  latest.current = { state: committed, rows: rowsOf(committed.data) };
  const current = useCallback(() => latest.current, []);
  const imports = useImport(current, load, setActionError, codec);
  usePageDrop(imports.onFile);
  const share = useShareActions(codec, committed, session.linkTooLong, setActionError);

  const editing = useRowEditing({
    store,
    selectedRow,
    hint,
    setHover,
    onFieldError,
    result,
    liveRow: compute.liveRow,
    output,
  });
  const onWorstCell = useCallback(
    (row: number, token: number) => {
      selectRow(row);
      heatmapRef.current?.focusCell(row, token);
    },
    [selectRow],
  );
  const committedRows = rowsOf(committed.data);
  const lanes = useLaneNotes(committed);
  const addressProblems = useMemo(() => [...urlProblems, ...startup.notices], [urlProblems, startup]);
  const { startupError, saveError } = session;
  const computeError = compute.error;
  const conventionsError = conventions.error;
  const { actionError } = errors;
  const errorLines = useMemo(
    () => pageErrorLines(startupError, saveError, computeError, conventionsError, actionError, fieldErrors),
    [startupError, saveError, computeError, conventionsError, actionError, fieldErrors],
  );
  // Stable, so that an edit renders again only the panels whose inputs it changed (they are memoised).
  const { forget } = imports;
  const onLoad = useCallback(
    (next: PlaygroundState) => {
      forget();
      load(next);
    },
    [forget, load],
  );
  const onReset = useCallback(() => {
    forget();
    load(FIRST_VISIT_STATE);
  }, [forget, load]);
  const resultRef = useRef(result);
  resultRef.current = result;
  const shownResult = useCallback(() => resultRef.current, []);
  const charts = useMemo(() => ({ returns: returnsRef, error: errorRef, heatmap: heatmapRef }), []);
  const onCp = useCallback(
    (contextParallel: PlaygroundState["contextParallel"]) => userSetView({ contextParallel }),
    [userSetView],
  );
  return (
    <div className="playground">
      {toolbarSlot
        ? createPortal(
            <PlaygroundToolbar
              state={committed}
              rows={rowsOf(committed.data)}
              hasResult={result !== null}
              shownResult={shownResult}
              codec={codec}
              target={imports.target}
              onTarget={imports.setTarget}
              onFile={imports.onFile}
              onLoad={onLoad}
              onReset={onReset}
              onCopyLink={share.copyLink}
              onOpenInPlayer={share.openInPlayer}
              linkStatus={share.linkStatus}
              onSaveCase={share.saveCase}
              onError={setActionError}
              onStatus={share.onStatus}
              charts={charts}
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
          errors={errorLines}
          notice={notice}
          notes={imports.notes}
          nonFiniteNote={lanes.nonFiniteNote}
          urlProblems={addressProblems}
          restoring={session.restoring}
          question={imports.question}
          reading={imports.reading}
          laneNotice={lanes.scanNotice}
          sessionKept={session.sessionKept}
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
            hint={hint.show && rows[selectedRow]?.length ? drawHint(state.estimator, mode) : null}
          />
          <RowEditor
            row={rows[selectedRow]}
            rowIndex={selectedRow}
            cols={cols}
            estimator={state.estimator}
            boundaries={editorStarts}
            mode={mode}
            hover={hover && hover.row === selectedRow ? hover.token : null}
            onHover={editing.onEditorHover}
            onDraft={editing.onDraftRow}
            onCommitDraft={editing.onCommitDraft}
            onEdit={editing.onEditRow}
            onInvalid={editing.onExactInvalid}
            onFirstUse={hint.rememberUsed}
            liveOutput={editing.liveOutput}
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
                worker={worker}
                dump={committed.dump}
                showCarries={committed.showCarries}
                onCarries={userSetView}
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
            unread={lanes.conventionsUnread}
          />
        ) : null}
        <ContextParallelPanel
          row={committedRows[selectedRow]}
          rowIndex={selectedRow}
          settings={committed}
          cp={committed.contextParallel}
          userRows={lanes.userRows}
          onCp={onCp}
        />
      </div>
      <aside className="pg-right" aria-label="Summary and readout">
        <SummaryPanel result={result} status={compute} current={ofInputs} onWorstCell={onWorstCell} />
        <HoverReadout lines={readout} />
      </aside>
    </div>
  );
}
