import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from "react";
import { cellView } from "../../compute/player/cells";
import { focusNote } from "../../compute/player/focusRow";
import { detailRegionOf, frame as frameAt, type RegionId } from "../../compute/player/frame";
import {
  DEFAULT_SPEED,
  focusOwnsKey,
  keyAction,
  moveCursor,
  nextSpeed,
  type PlayerAction,
  stepMillis,
} from "../../compute/player/playback";
import {
  cursorPlace,
  editableState,
  editSource,
  type FieldId,
  sourceOrigin,
  withLength,
  withRow,
} from "../../compute/player/playerEdits";
import { PlayerFileReader } from "../../compute/player/playerFileClient";
import { exampleSource, type PlayerSource, playableCases } from "../../compute/player/source";
import { stageLayout, type TimeView } from "../../compute/player/stageLayout";
import { LABEL_WIDTH, visibleRows } from "../../compute/player/stageModel";
import { TOUR, TOUR_EXAMPLE, type TourTarget, tourCursor } from "../../compute/player/tour";
import { localStepOfChunk, type PlayerTrace } from "../../compute/player/trace";
import type { EngineClient } from "../../engine/client";
import type { PlaygroundState } from "../../io/playgroundState";
import type { BackendRequest } from "../../names/backends";
import { useWidth } from "../charts/useWidth";
import { CarryPanel, PreludePanel, SummaryPanel } from "./DetailPanels";
import { FormulaCard } from "./FormulaCard";
import { Legend } from "./Legend";
import { MatrixPanel } from "./MatrixPanel";
import { Narrative, StepCaption } from "./Narrative";
import { Overview } from "./Overview";
import { FIELD_NAMES, PlayerControls } from "./PlayerControls";
import { PlayerRewardEditor } from "./PlayerRewardEditor";
import { SerialPanel } from "./SerialPanel";
import { SourceBar } from "./SourceBar";
import { type Inspected, Stage } from "./Stage";
import { TourPanel, type TryState } from "./TourPanel";
import { Transport } from "./Transport";
import { useNarrow, useReducedMotion } from "./useMediaQuery";
import { usePlayerRun } from "./usePlayerRun";
import "./player.css";
import { Note } from "../Note";

export interface PlayerViewProps {
  /**
   * What to open first: a playground state or a case of a case file; the first built-in example by
   * default. Read once, at mount (remount with a new `key` to open another source from outside).
   */
  initial?: PlayerSource;
  /** A message about the address (a damaged `s`), shown above the player. */
  notice?: string;
  /** The engine backend to ask for (the playground's or the address's choice). */
  backend?: BackendRequest;
  /** An engine client to share with the rest of the page; the player starts its own otherwise. */
  engine?: EngineClient;
  /** Open the tour at its first stop, on its own example (the playground's "Take the tour"). */
  startTour?: boolean;
  /** The batch was changed with the player's own controls (the address then keeps the new state). */
  onEdited?(state: PlaygroundState): void;
}

/**
 * The step-by-step player: the engine's own local scans and carries replayed under a cursor,
 * beside the float64 serial loop. Every frame is `frame(trace, cursor)`: stepping back, scrubbing
 * and jumping land on exactly the same picture.
 */
export function PlayerView({
  initial,
  notice,
  backend = "auto",
  engine,
  startTour = false,
  onEdited,
}: PlayerViewProps) {
  // The tour's words are written for its own example, so a tour asked for at startup opens that.
  const [source, setSource] = useState<PlayerSource>(() =>
    startTour ? exampleSource(TOUR_EXAMPLE) : (initial ?? exampleSource("returns")),
  );
  const run = usePlayerRun(source, backend, engine);
  const [fileError, setFileError] = useState<string>();
  const trace = run.trace;

  const [cursor, setCursor] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(DEFAULT_SPEED);
  const [view, setView] = useState<TimeView>("original");
  const [focusRow, setFocusRow] = useState(0);
  const [tourStop, setTourStop] = useState<number | undefined>(startTour ? 0 : undefined);
  const [lastTourStop, setLastTourStop] = useState(0);
  const [shortcuts, setShortcuts] = useState(false);
  const [term, setTerm] = useState<RegionId>();
  const [inspected, setInspected] = useState<Inspected>();
  // Stepping and playing animate (a short transition, then a hold); scrubbing and jumps cut.
  const [motion, setMotion] = useState<"animate" | "cut">("cut");
  const reducedMotion = useReducedMotion();
  const narrow = useNarrow();
  // Where the next trace opens: a tour stop asked for while the tour's example was still running,
  // or, after an edit (γ, C, …), the same phase, chunk and position, clamped.
  const [pending, setPending] = useState<{ tour?: number; place?: TourTarget }>(startTour ? { tour: 0 } : {});
  // A tour stop's try: the stop, the inputs and trace before it (Undo goes back to them), or a refusal.
  const [tourTry, setTourTry] = useState<
    { stop: number; before: PlayerSource; beforeTrace: PlayerTrace } | { stop: number; refused: string }
  >();

  // A new run starts at its first step (or where it is pending), paused: set in the render that
  // brings the trace, so that no frame shows it at the old cursor.
  const [opened, setOpened] = useState<PlayerTrace>();
  if (trace && trace !== opened) {
    setOpened(trace);
    const { tour, place } = pending;
    setPending({});
    const target = tour !== undefined ? TOUR[tour].target : place;
    setCursor(target ? tourCursor(trace, target) : 0);
    setPlaying(false);
    // An edit keeps the open formula card where its cell still exists: it then shows the new numbers.
    const { rows: B, cols: T } = trace.replay;
    setInspected((i) => (place !== undefined && i && i.b < B && i.t < T ? i : undefined));
    setFocusRow((row) => Math.min(row, B - 1));
  }

  const f = useMemo(() => (trace ? frameAt(trace, cursor, focusRow) : undefined), [trace, cursor, focusRow]);
  // One array per focus row, so the memoised stage redraws only when something it shows changed.
  const shownRow = f?.focusRow ?? 0;
  const rows = useMemo(() => (trace ? visibleRows(trace.replay.rows, shownRow) : []), [trace, shownRow]);

  // Playing: one step per interval; it stops at the last step.
  const lastStep = trace ? trace.steps.length - 1 : 0;
  const running = playing && cursor < lastStep;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setCursor((c) => Math.min(lastStep, c + 1)), stepMillis(speed));
    return () => clearInterval(timer);
  }, [running, speed, lastStep]);

  /** A source the controls or the tour changed (or put back): the address keeps its state. */
  const showEdited = (next: PlayerSource) => {
    setSource(next);
    if (next.kind === "state") onEdited?.(next.state);
  };
  const openTour = (stop: number) => {
    if (!trace) return;
    const at = Math.max(0, Math.min(TOUR.length - 1, stop));
    setTourStop(at);
    setLastTourStop(at);
    setPlaying(false);
    // A stop's words are about the inputs before its try: another stop undoes it first.
    if (tourTry && "before" in tourTry) {
      setTourTry(undefined);
      setPending((p) => ({ ...p, tour: at }));
      showEdited(tourTry.before);
      return;
    }
    setTourTry(undefined);
    // The tour's words are written for its own example: open it first, then go to the stop.
    if (sourceOrigin(source) !== TOUR_EXAMPLE) {
      setPending((p) => ({ ...p, tour: at }));
      setSource(exampleSource(TOUR_EXAMPLE));
      return;
    }
    setCursor(tourCursor(trace, TOUR[at].target));
  };
  /** Another source closes the tour, which would otherwise talk about numbers no longer shown. */
  const openSource = (next: PlayerSource) => {
    setPending({});
    setTourStop(undefined);
    setTourTry(undefined);
    setSource(next);
  };

  const edit = (field: FieldId | "rewards", change: (state: PlaygroundState) => PlaygroundState) =>
    editSource(source, field === "rewards" ? "Rewards" : FIELD_NAMES[field], change);

  const editable = useMemo(() => editableState(source), [source]);
  /** An edit from the controls: refused with its reason (the source stays), or run with the cursor kept in place. */
  const [drawing, setDrawing] = useState(false);
  const tryEdit = (field: FieldId | "rewards", change: (state: PlaygroundState) => PlaygroundState, apply: boolean) => {
    const result = edit(field, change);
    if (!result.ok) return result.reason;
    if (!apply) return null;
    if (trace && pending.tour === undefined) setPending({ place: cursorPlace(trace, cursor) });
    // The try's outcome and Undo are about the inputs it changed: another edit ends them.
    setTourTry(undefined);
    setFileError(undefined);
    showEdited(result.source);
    return null;
  };

  /**
   * The stop's one change, through the controls' own edit path: the scan reruns on the engine and
   * the cursor lands on the stop's step of the new trace; Undo restores the inputs from before it.
   */
  const tryTourStop = (stop: number) => {
    if (!trace) return;
    const { try: change, target } = TOUR[stop];
    const result = edit(change.field, change.change);
    if (!result.ok) {
      setTourTry({ stop, refused: result.reason });
      return;
    }
    setPending((p) => ({ ...p, place: change.at ?? target }));
    setPlaying(false);
    setFileError(undefined);
    setTourTry({ stop, before: source, beforeTrace: trace });
    showEdited(result.source);
  };
  const undoTourTry = () => {
    if (!tourTry || !("before" in tourTry)) return;
    setPending((p) => ({ ...p, place: TOUR[tourTry.stop].target }));
    setTourTry(undefined);
    showEdited(tourTry.before);
  };

  const act = useCallback(
    (action: PlayerAction) => {
      if (!trace) return;
      switch (action.type) {
        case "toggle":
          setMotion("animate");
          if (!running) setCursor((c) => (c >= lastStep ? 0 : c));
          setPlaying(!running);
          return;
        case "speed":
          setSpeed((s) => nextSpeed(s, action.delta));
          return;
        case "row":
          setFocusRow((row) => Math.max(0, Math.min(trace.replay.rows - 1, row + action.delta)));
          return;
        case "shortcuts":
          setShortcuts((s) => !s);
          return;
        case "escape":
          setInspected(undefined);
          setShortcuts(false);
          setTourStop(undefined);
          setTourTry(undefined);
          return;
        default:
          setPlaying(false);
          setMotion(action.type === "step" ? "animate" : "cut");
          setCursor((c) => moveCursor(trace, c, action));
      }
    },
    [trace, running, lastStep],
  );

  // The keyboard map, wherever the focus is, except in fields that use the keys themselves. It is
  // attached once and reads the state of the last commit: a listener re-attached after each render
  // lost a key pressed between a new trace's paint and its effect.
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    const target = e.target as HTMLElement | null;
    if (target?.isContentEditable) return;
    if (target && focusOwnsKey(target.tagName, (target as HTMLInputElement).type ?? "", e.key)) return;
    const action = keyAction(e);
    // A widget that used the key itself (the reward editor's token cursor) keeps it.
    if (!action || e.defaultPrevented) return;
    e.preventDefault();
    act(action);
  });
  useEffect(() => {
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const stageElement = useRef<HTMLDivElement | null>(null);
  const stageWidth = useWidth(stageElement, 800);
  // One column: a tour stop's Next sits under the stage, so after it the stage would be above the
  // screen; each stop brings the stage it talks about back to the top (under the sticky top bar).
  useEffect(() => {
    if (narrow && tourStop !== undefined) stageElement.current?.scrollIntoView({ block: "start" });
  }, [narrow, tourStop]);
  // One column: the transport bar sticks over the words under the stage; a step brings its caption
  // clear of it (only as far as needed: nothing moves when the caption is already in full view).
  const captionElement = useRef<HTMLDivElement | null>(null);
  const stepped = useRef(cursor);
  useEffect(() => {
    if (stepped.current === cursor) return;
    stepped.current = cursor;
    if (narrow && tourStop === undefined) captionElement.current?.scrollIntoView({ block: "nearest" });
  }, [narrow, tourStop, cursor]);

  const [fileReader] = useState(() => new PlayerFileReader());
  useEffect(() => () => fileReader.dispose(), [fileReader]);
  const readFile = async (file: File) => {
    try {
      const read = await fileReader.read(file);
      if (!read) return;
      // Cases too large to replay are left out, and the note says so; the first that fits opens.
      setFileError(read.leftOut ?? undefined);
      openSource({ kind: "case", file: read.file, fileName: file.name, index: playableCases(read.file)[0].index });
    } catch (error) {
      setFileError(error instanceof Error ? error.message : String(error));
    }
  };

  const error = fileError ?? run.error;
  const noticeLine = <Note className="player-notice" text={notice} testId="url-notice" />;
  const focusLine = (
    <Note
      className="player-notice"
      text={source.kind === "state" && source.focus ? focusNote(source.focus) : null}
      testId="player-focus-note"
    />
  );
  const errorLine = <Note className="player-error" text={error} testId="error-message" alert />;
  const controls = (
    <PlayerControls
      state={editable.ok ? editable.state : undefined}
      why={editable.ok ? undefined : `The controls cannot change this case: ${editable.reason}`}
      focusRow={focusRow}
      onEdit={(field, change) => tryEdit(field, change, true)}
      onCheck={(field, change) => tryEdit(field, change, false)}
      drawing={drawing}
      onDrawing={setDrawing}
      lengthEdit={withLength}
    />
  );
  const sourceBar = (
    <SourceBar
      source={source}
      label={run.label}
      rows={trace?.replay.rows ?? 0}
      focusRow={focusRow}
      running={run.running}
      onExample={(id) => {
        setFileError(undefined);
        openSource(exampleSource(id));
      }}
      onFile={readFile}
      onCase={(file, fileName, index) => openSource({ kind: "case", file, fileName, index })}
      onFocusRow={setFocusRow}
    />
  );
  if (!trace || !f) {
    return (
      <section className="player" aria-label="Step-by-step player">
        {noticeLine}
        {sourceBar}
        {focusLine}
        {error ? errorLine : <p className="player-loading">Running the example on the engine…</p>}
        {/* A batch refused as too large can still be made smaller here (a shorter length, a smaller C). */}
        {error && editable.ok ? controls : null}
      </section>
    );
  }

  const r = trace.replay;
  const tourRegions = tourStop === undefined ? undefined : TOUR[tourStop].highlights;
  const emphasis = term ? [term] : tourRegions;
  const dim = (region: RegionId) => (emphasis && !emphasis.includes(region) ? " dim" : "");
  const layout = stageLayout({
    nChunks: r.nChunks,
    chunkSize: r.chunkSize,
    view,
    focusChunk: f.focusChunk,
    width: Math.max(120, stageWidth - LABEL_WIDTH - 8),
    // One column (a phone, a narrow window): cells wide enough to tap, and to print numbers where they can.
    minCell: narrow ? 22 : 12,
  });
  // The reward editor's token axis over the stage's columns, where every token is drawn in original time.
  const firstToken = layout.tokens.find((col) => col.i === r.cols - 1);
  const lastToken = layout.tokens.find((col) => col.i === 0);
  const editorAxis =
    view === "original" && layout.folds.length === 0 && firstToken && lastToken
      ? { left: LABEL_WIDTH + firstToken.x, right: LABEL_WIDTH + lastToken.x + layout.cell }
      : undefined;
  const rewardEditor =
    drawing && editable.ok ? (
      <PlayerRewardEditor
        state={editable.state}
        focusRow={focusRow}
        axis={editorAxis}
        onEdit={(row, b) => tryEdit("rewards", (s) => withRow(s, b, row), true)}
      />
    ) : null;
  const animated = motion === "animate" && !reducedMotion && layout.folds.length === 0;
  const card =
    inspected && cellView(r, f, inspected.lane, inspected.b, r.cols - 1 - inspected.t).state === "value"
      ? inspected
      : undefined;
  const detail = f.matrix ? (
    <MatrixPanel replay={r} matrix={f.matrix} view={view} b={f.focusRow} />
  ) : f.carry ? (
    <CarryPanel replay={r} carry={f.carry} b={f.focusRow} />
  ) : f.step.kind === "combine" || f.step.kind === "compare" || f.step.kind === "gae-returns" ? (
    <SummaryPanel replay={r} compare={f.step.kind === "compare"} />
  ) : (
    <PreludePanel replay={r} frame={f} />
  );

  const detailRegion = detailRegionOf(f);
  // The try's outcome, read from the rerun once it has arrived (the old trace stays while it runs).
  const tried: TryState =
    !tourTry || tourTry.stop !== tourStop
      ? { state: "ready" }
      : "refused" in tourTry
        ? { state: "refused", reason: tourTry.refused }
        : trace === tourTry.beforeTrace || run.running
          ? run.error
            ? { state: "refused", reason: run.error }
            : { state: "running" }
          : { state: "done", outcome: TOUR[tourTry.stop].try.outcome(tourTry.beforeTrace, trace) };
  const closeTour = () => {
    setTourStop(undefined);
    setTourTry(undefined);
  };
  const tourPanel =
    tourStop === undefined ? null : (
      <TourPanel
        stop={tourStop}
        onGo={openTour}
        onClose={closeTour}
        tried={tried}
        onTry={() => tryTourStop(tourStop)}
        onUndo={undoTourTry}
      />
    );
  const serialPanel = (
    <div className={`detail-serial${dim("serial-panel")}`}>
      <SerialPanel replay={r} frame={f} />
    </div>
  );

  return (
    <section
      className={`player${tourStop !== undefined ? " touring" : ""}${animated ? " animated" : ""}`}
      aria-label="Step-by-step player"
      data-phase={f.phase.id}
    >
      {noticeLine}
      {sourceBar}
      {focusLine}
      {errorLine}
      <div className="player-main">
        <Narrative
          frame={f}
          tourStop={tourStop}
          tourPanel={narrow ? null : tourPanel}
          captionElsewhere={narrow}
          shortcuts={shortcuts}
          onTerm={setTerm}
          onTourStart={() => openTour(lastTourStop)}
          onShortcutsClose={() => setShortcuts(false)}
        >
          {/* One column: after the phase's note. Two: beside the detail under the stage, so the
              narrative column (tour stop, caption, note) fits above the transport bar at 800 px. */}
          {narrow ? serialPanel : null}
        </Narrative>
        <div className="player-stage" ref={stageElement} data-testid="player-stage">
          {/* One column: the step's words come right under the cells, the controls after them. */}
          {narrow ? null : controls}
          {layout.folds.length > 0 ? (
            <Overview
              replay={r}
              frame={f}
              layout={layout}
              width={stageWidth}
              onChunk={(c) => setCursor(localStepOfChunk(trace, c))}
            />
          ) : null}
          {/* Over the stage; on one column under the controls (the stage is folded there, and the
              button that opens it is below the stage). */}
          {narrow ? null : rewardEditor}
          <div className="stage-scroll" onPointerLeave={() => setInspected(undefined)}>
            <Stage
              replay={r}
              frame={f}
              layout={layout}
              rows={rows}
              emphasis={emphasis}
              inspected={card}
              onInspect={setInspected}
            />
          </div>
          {narrow ? (
            <div className="stage-caption" ref={captionElement}>
              <StepCaption frame={f} />
            </div>
          ) : null}
          {narrow ? tourPanel : null}
          {narrow ? controls : null}
          {narrow ? rewardEditor : null}
          <Legend replay={r} rows={rows} />
          {r.rows > rows.length ? (
            <p className="rows-note">
              Rows {rows[0]}–{rows[rows.length - 1]} of {r.rows} (↑ ↓ move the focus row).
            </p>
          ) : null}
          <div className="stage-detail">
            <div className={`detail-main${dim(detailRegion)}`}>{detail}</div>
            {narrow ? null : serialPanel}
            {card ? <FormulaCard replay={r} target={card} onClose={() => setInspected(undefined)} /> : null}
          </div>
        </div>
      </div>
      <Transport
        trace={trace}
        cursor={f.cursor}
        playing={running}
        speed={speed}
        view={view}
        spotlight={Boolean(tourRegions?.includes("transport"))}
        onPlay={() => act({ type: "toggle" })}
        onPause={() => setPlaying(false)}
        onStep={(delta) => act({ type: "step", delta })}
        onSection={(delta) => act({ type: "section", delta })}
        onSeek={(c) => {
          setPlaying(false);
          setMotion("cut");
          setCursor(c);
        }}
        onSpeed={setSpeed}
        onView={setView}
        onTour={() => openTour(lastTourStop)}
        onShortcuts={() => setShortcuts((s) => !s)}
      />
    </section>
  );
}
