import { type PointerEvent, useLayoutEffect, useRef } from "react";
import { drawLane, type LanePicture } from "./drawLane";

export interface LaneCanvasProps {
  picture: LanePicture;
  label: string;
  onPointerDown(event: PointerEvent<HTMLCanvasElement>): void;
  onPointerMove(event: PointerEvent<HTMLCanvasElement>): void;
  onPointerUp(event: PointerEvent<HTMLCanvasElement>): void;
  onPointerLeave(): void;
}

/**
 * One lane's canvas, sharp at any device pixel ratio; redraws when a field of its picture changes
 * (arrays by identity), not for every new picture object: the editor re-renders on every edit of a
 * setting (γ, C), and redrawing its lanes cost about 1 ms a lane at 16 × 8192.
 */
export function LaneCanvas({ picture, label, ...handlers }: LaneCanvasProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const { width, height, cols, length, values, mask, kind, range, boundaries, cursor, hover, overlay } = picture;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the picture's fields say when to redraw; it is read whole.
  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext("2d");
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(picture.width * dpr);
    const h = Math.round(picture.height * dpr);
    if (canvas.width !== w) canvas.width = w;
    if (canvas.height !== h) canvas.height = h;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawLane(ctx, picture);
  }, [width, height, cols, length, values, mask, kind, range, boundaries, cursor, hover, overlay]);
  return (
    <canvas
      ref={ref}
      className="lane-canvas"
      style={{ width: picture.width, height: picture.height }}
      role="img"
      aria-label={`${label} lane`}
      data-lane={label}
      onPointerDown={handlers.onPointerDown}
      onPointerMove={handlers.onPointerMove}
      onPointerUp={handlers.onPointerUp}
      onPointerCancel={handlers.onPointerUp}
      onPointerLeave={handlers.onPointerLeave}
    />
  );
}
