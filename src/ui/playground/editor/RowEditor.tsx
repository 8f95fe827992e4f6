import { type KeyboardEvent, memo, type PointerEvent, useEffect, useMemo, useRef, useState } from "react";
import {
  drawSegment,
  type LaneRange,
  laneRange,
  paintMask,
  tokenAt,
  valueAt,
} from "../../../compute/playground/editorGeometry";
import { formatExact } from "../../../compute/playground/formatExact";
import { LANE_LABELS, lanesFor, maskIsUsed } from "../../../compute/playground/lanes";
import { type Lane, laneOf } from "../../../io/playgroundProblem";
import type { Estimator, PlaygroundRow } from "../../../io/playgroundState";
import { drawableBoundaries } from "../../charts/chunkBoundaries";
import { PLOT_LEFT, PLOT_RIGHT } from "../../charts/plotLayout";
import { useWidth } from "../../charts/useWidth";
import { ExactValueForm } from "./ExactValueForm";
import { LaneCanvas } from "./LaneCanvas";
import "./rowEditor.css";

export type EditMode = "draw" | "mask";

export interface RowEditorProps {
  row: PlaygroundRow;
  rowIndex: number;
  /** The padded length: the shared token axis of the editor, the charts and the heatmap. */
  cols: number;
  estimator: Estimator;
  /** Chunk boundaries (original time) worth a line at this width. */
  boundaries: readonly number[];
  mode: EditMode;
  hover: number | null;
  onHover(token: number | null): void;
  /** The row while a stroke lasts (at most once per frame). */
  onDraft(row: PlaygroundRow): void;
  /** The stroke ended: commit the last draft as one edit. */
  onCommitDraft(): void;
  /** A single edit (an exact value, a key press). */
  onEdit(row: PlaygroundRow): void;
  onInvalid(reason: string | null): void;
  /** The first stroke: the editor's hint is no longer needed. */
  onFirstUse(): void;
  /** The edited row's chunked output while a stroke lasts, drawn over the first lane. */
  liveOutput?: ArrayLike<number> | null;
  /** What the live line is, for its label ("returns", "advantages"). */
  liveLabel?: string;
}

interface Stroke {
  lane: Lane;
  pointerId: number;
  x0: number;
  y0: number;
  started: boolean;
  working: number[];
  last: { token: number; value: number };
  range: LaneRange;
  paint: 0 | 1;
  frame: number;
  rect: DOMRect;
}

const LANE_HEIGHT: Record<Lane, number> = { rewards: 88, kl: 88, values: 64, lossMask: 18 };
/** Closest chunk-boundary lines may be drawn in the lanes, in CSS px. */
const MIN_BOUNDARY_GAP_PX = 12;
/** A press that moves less than this is a click (exact entry), not a stroke. */
const CLICK_SLOP_PX = 3;

/** The lane editor of one row: draw values or paint mask holes with the pointer, or type exact values. */
export const RowEditor = memo(function RowEditor(props: RowEditorProps) {
  const { row, rowIndex, cols, estimator, mode, hover } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef, 800);
  const plotWidth = Math.max(40, width - PLOT_LEFT - PLOT_RIGHT);
  const lanes = lanesFor(estimator);
  const [cursor, setCursor] = useState(0);
  const [activeLane, setActiveLane] = useState<Lane>(lanes[0]);
  const [exact, setExact] = useState<{ lane: Lane; token: number } | null>(null);
  const [focused, setFocused] = useState(false);
  const stroke = useRef<Stroke | null>(null);
  // The drawn lane keeps its scale while a stroke lasts, even if the stroke removes its largest value.
  const [frozen, setFrozen] = useState<{ lane: Lane; range: LaneRange } | null>(null);
  const latest = useRef(props);
  latest.current = props;

  // Lanes change with the estimator; the cursor stays inside the row.
  const lane = lanes.includes(activeLane) ? activeLane : lanes[0];
  const token = Math.min(cursor, Math.max(0, row.length - 1));
  useEffect(() => () => cancelAnimationFrame(stroke.current?.frame ?? 0), []);

  const values = useMemo(() => {
    const out = {} as Record<Lane, number[]>;
    for (const l of lanesFor(estimator)) out[l] = laneOf(row, l);
    return out;
  }, [row, estimator]);
  const mask = values.lossMask;
  const ranges = useMemo(() => {
    const out = {} as Record<Lane, LaneRange>;
    for (const l of lanesFor(estimator)) out[l] = l === "lossMask" ? { min: 0, max: 1 } : laneRange(values[l]);
    if (frozen) out[frozen.lane] = frozen.range;
    return out;
  }, [values, estimator, frozen]);

  const rowWith = (l: Lane, lane: number[]): PlaygroundRow => ({ ...latest.current.row, [l]: lane });

  // During a stroke the lane's rectangle is the one measured at pointer-down: measuring on every
  // move would force a layout of the whole page (charts included) after each redraw.
  const pointerToken = (event: PointerEvent<HTMLCanvasElement>, known?: DOMRect) => {
    const rect = known ?? event.currentTarget.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    return { x, y, token: tokenAt(x, rect.width, cols), height: rect.height };
  };

  const onPointerDown = (l: Lane) => (event: PointerEvent<HTMLCanvasElement>) => {
    if (event.button !== 0 || row.length === 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    boxRef.current?.focus({ preventScroll: true });
    const rect = event.currentTarget.getBoundingClientRect();
    const { x, y, token: t, height } = pointerToken(event, rect);
    const target: Lane = mode === "mask" ? "lossMask" : l;
    const clamped = Math.min(t, row.length - 1);
    stroke.current = {
      lane: target,
      pointerId: event.pointerId,
      x0: x,
      y0: y,
      started: false,
      working: laneOf(row, target).slice(),
      last: { token: clamped, value: target === "lossMask" ? 0 : valueAt(y, height, ranges[target]) },
      range: ranges[target],
      paint: mask[clamped] === 1 ? 0 : 1,
      frame: 0,
      rect,
    };
  };

  const applyMove = (s: Stroke, t: number, value: number, first: boolean) => {
    const length = latest.current.row.length;
    const to = { token: Math.min(t, length - 1), value };
    if (s.lane === "lossMask") paintMask(s.working as (0 | 1)[], first ? to.token : s.last.token, to.token, s.paint);
    else drawSegment(s.working, first ? to : s.last, to);
    s.last = to;
  };

  const onPointerMove = (l: Lane) => (event: PointerEvent<HTMLCanvasElement>) => {
    const s = stroke.current;
    const { x, y, token: t, height } = pointerToken(event, s?.rect);
    if (!s || s.pointerId !== event.pointerId) {
      props.onHover(t < row.length ? t : null);
      return;
    }
    if (!s.started) {
      if (Math.hypot(x - s.x0, y - s.y0) < CLICK_SLOP_PX) return;
      s.started = true;
      setFrozen({ lane: s.lane, range: s.range });
      props.onFirstUse();
      applyMove(s, s.last.token, s.last.value, true);
    }
    applyMove(s, t, s.lane === "lossMask" ? 0 : valueAt(y, height, s.range), false);
    setCursor(s.last.token);
    setActiveLane(mode === "mask" ? l : s.lane);
    // One draft per frame however fast the pointer moves: the row is recomputed at most that often.
    if (!s.frame) {
      s.frame = requestAnimationFrame(() => {
        s.frame = 0;
        latest.current.onDraft(rowWith(s.lane, s.working.slice()));
      });
    }
  };

  const onPointerUp = (l: Lane) => (event: PointerEvent<HTMLCanvasElement>) => {
    const s = stroke.current;
    if (!s || s.pointerId !== event.pointerId) return;
    stroke.current = null;
    cancelAnimationFrame(s.frame);
    setFrozen(null);
    if (s.started) {
      props.onDraft(rowWith(s.lane, s.working.slice()));
      props.onCommitDraft();
      return;
    }
    // A click: the mask toggles, a value lane opens exact entry for that token.
    const { token: t } = pointerToken(event, s.rect);
    if (t >= row.length) return;
    setCursor(t);
    setActiveLane(l);
    if (s.lane === "lossMask") toggleMask(t);
    else setExact({ lane: l, token: t });
  };

  const toggleMask = (t: number) => {
    const next = mask.slice() as (0 | 1)[];
    next[t] = next[t] === 1 ? 0 : 1;
    props.onEdit(rowWith("lossMask", next));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || row.length === 0) return;
    const step = event.shiftKey ? Math.max(1, Math.round(row.length / 20)) : 1;
    const move = (t: number) => {
      event.preventDefault();
      const next = Math.min(row.length - 1, Math.max(0, t));
      setCursor(next);
      props.onHover(next);
    };
    const laneIndex = lanes.indexOf(lane);
    switch (event.key) {
      case "ArrowLeft":
        return move(token - step);
      case "ArrowRight":
        return move(token + step);
      case "Home":
        return move(0);
      case "End":
        return move(row.length - 1);
      case "ArrowUp":
        event.preventDefault();
        return setActiveLane(lanes[Math.max(0, laneIndex - 1)]);
      case "ArrowDown":
        event.preventDefault();
        return setActiveLane(lanes[Math.min(lanes.length - 1, laneIndex + 1)]);
      case "Enter":
        event.preventDefault();
        if (lane === "lossMask") toggleMask(token);
        else setExact({ lane, token });
        return;
      case "m":
      case "M":
        event.preventDefault();
        return toggleMask(token);
    }
  };

  // Chunk boundaries only where they stay apart (the charts below always show them).
  const shownBoundaries = useMemo(
    () => drawableBoundaries(props.boundaries, cols, plotWidth, MIN_BOUNDARY_GAP_PX).lines,
    [props.boundaries, cols, plotWidth],
  );
  const showCursor = focused || exact !== null;
  const hoverToken = hover !== null && hover < cols ? hover : null;
  const readLane = exact?.lane ?? lane;
  const readToken = exact?.token ?? token;
  return (
    <div className="row-editor">
      <div
        ref={boxRef}
        className={`lanes mode-${mode}`}
        role="application"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a keyboard-operated composite widget (arrow keys move a token cursor).
        tabIndex={0}
        aria-label={`Editor of row ${rowIndex}: ${lanes.map((l) => LANE_LABELS[l]).join(", ")}`}
        aria-describedby="pg-editor-keys"
        data-testid="row-editor"
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
      >
        {lanes.map((l) => (
          <div
            key={l}
            className={`lane${l === lane && showCursor ? " active" : ""}`}
            style={{ paddingLeft: PLOT_LEFT, paddingRight: PLOT_RIGHT }}
          >
            <div className="lane-label" style={{ width: PLOT_LEFT }}>
              <span>{LANE_LABELS[l]}</span>
              {l === "lossMask" ? (
                <span className="lane-note">{maskIsUsed(estimator) ? "holes: not in loss" : "shown only"}</span>
              ) : (
                <span className="lane-range num">±{ranges[l].max}</span>
              )}
              {l === lanes[0] && props.liveOutput ? (
                <span className="lane-live">— {props.liveLabel ?? "output"}</span>
              ) : null}
            </div>
            <LaneCanvas
              label={l}
              picture={{
                width: plotWidth,
                height: LANE_HEIGHT[l],
                cols,
                length: row.length,
                values: values[l],
                mask,
                kind: l === "lossMask" ? "mask" : "values",
                range: ranges[l],
                boundaries: shownBoundaries,
                cursor: showCursor && l === lane ? token : null,
                hover: hoverToken,
                overlay: l === lanes[0] ? props.liveOutput : null,
              }}
              onPointerDown={onPointerDown(l)}
              onPointerMove={onPointerMove(l)}
              onPointerUp={onPointerUp(l)}
              onPointerLeave={() => {
                if (!stroke.current) props.onHover(null);
              }}
            />
          </div>
        ))}
      </div>
      <ExactValueForm
        key={exact ? `${exact.lane}:${exact.token}` : "readout"}
        rowIndex={rowIndex}
        length={row.length}
        token={readToken}
        lane={readLane}
        value={row.length > 0 ? values[readLane]?.[readToken] : undefined}
        mask={row.length > 0 ? mask[readToken] : undefined}
        editing={exact !== null}
        format={(v) => formatExact(v, "float32")}
        onSubmit={(v) => {
          if (!exact) return;
          const next = values[exact.lane].slice();
          next[exact.token] = v;
          props.onEdit(rowWith(exact.lane, next));
          setExact(null);
          boxRef.current?.focus({ preventScroll: true });
        }}
        onCancel={() => {
          setExact(null);
          boxRef.current?.focus({ preventScroll: true });
        }}
        onInvalid={props.onInvalid}
      />
      <p id="pg-editor-keys" className="sr-only">
        Left and right arrows move the token cursor (Shift: larger steps, Home and End: the ends); up and down choose
        the lane; Enter types an exact value; M toggles the loss mask.
      </p>
    </div>
  );
});
