import { rgbCss } from "../../compute/heatmap/colourScale";
import { canvasToBlob } from "../charts/chartPng";
import { drawCross } from "./heatmapRender";
import type { LegendModel } from "./legendModel";

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAD = 12;
const LINE = 18;
const SWATCH = 40;

/** Draws the legend model at (x, y) in CSS pixels; returns the height used. */
export function drawLegend(
  ctx: CanvasRenderingContext2D,
  model: LegendModel,
  x: number,
  y: number,
  width: number,
): number {
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  ctx.fillStyle = "#111827";
  ctx.font = `600 12px ${FONT}`;
  ctx.fillText(model.title, x, y + LINE / 2);
  let cy = y + LINE + 2;
  model.swatches.forEach((c, i) => {
    ctx.fillStyle = rgbCss(c);
    ctx.fillRect(x + i * SWATCH, cy, SWATCH, 12);
  });
  ctx.font = `11px ${FONT}`;
  ctx.fillStyle = "#374151";
  ctx.textAlign = "center";
  model.ticks.forEach((tick, i) => {
    ctx.fillText(tick, x + i * SWATCH, cy + 12 + 9);
  });
  ctx.textAlign = "left";
  // Keys on their own rows under the ramp, flowing left to right.
  let kx = x;
  let ky = cy + 12 + 18 + LINE / 2 + 4;
  for (const key of model.keys) {
    const w = 20 + ctx.measureText(key.label).width + 18;
    if (kx + w > x + width && kx > x) {
      kx = x;
      ky += LINE;
    }
    drawKey(ctx, key, kx, ky - 6);
    ctx.fillStyle = "#374151";
    ctx.fillText(key.label, kx + 20, ky);
    kx += w;
  }
  cy = ky + LINE / 2 + 2;
  ctx.fillStyle = "#4b5563";
  for (const note of model.notes) {
    ctx.fillText(note, x, cy + LINE / 2);
    cy += LINE;
  }
  return cy - y;
}

function drawKey(ctx: CanvasRenderingContext2D, key: LegendModel["keys"][number], x: number, y: number) {
  const outlined = key.kind === "overBound" || key.kind === "worst";
  const blank = outlined || key.kind === "masked" || key.kind === "unchecked";
  ctx.fillStyle = blank ? "#fff" : rgbCss(key.colour);
  ctx.fillRect(x, y, 14, 12);
  ctx.strokeStyle = "#6b7280";
  ctx.lineWidth = 1;
  if (key.kind === "masked") {
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, 14, 12);
    ctx.clip();
    ctx.strokeStyle = "rgba(17, 24, 39, 0.6)";
    ctx.beginPath();
    for (let d = -12; d < 14; d += 4) {
      ctx.moveTo(x + d, y + 12);
      ctx.lineTo(x + d + 12, y);
    }
    ctx.stroke();
    ctx.restore();
  }
  if (key.kind === "nonFinite") ctx.setLineDash([2, 2]);
  if (key.kind === "unchecked") ctx.setLineDash([1, 2]);
  const marked = key.kind === "nonFinite" || key.kind === "chunkedOnlyNonFinite" || key.kind === "unchecked";
  ctx.strokeStyle = outlined || marked ? "#000" : "#6b7280";
  if (key.kind === "chunkedOnlyNonFinite") drawCross(ctx, x + 0.5, y + 0.5, 13, 11);
  ctx.lineWidth = key.kind === "overBound" || key.kind === "unchecked" ? 1.5 : 1;
  ctx.strokeRect(x + 0.5, y + 0.5, 13, 11);
  ctx.setLineDash([]);
  if (outlined) {
    ctx.fillStyle = "#000";
    ctx.font = `9px ${FONT}`;
    ctx.fillText(key.kind === "worst" ? "▼" : "▲", x + 3, y + 6);
    ctx.font = `11px ${FONT}`;
  }
}

/**
 * The heatmap as a PNG: its canvas (device pixels, as drawn on screen) with a title above and the
 * legend below.
 */
export function heatmapPng(canvas: HTMLCanvasElement, model: LegendModel, title: string, dpr: number): Promise<Blob> {
  const cssWidth = canvas.width / dpr;
  const cssHeight = canvas.height / dpr;
  const out = document.createElement("canvas");
  const ctx = out.getContext("2d");
  if (!ctx) return Promise.reject(new Error("no 2D canvas to draw the PNG on"));
  // Measure the legend on a scratch pass, then size the canvas and draw for real.
  const legendX = PAD + 20; // room for the first tick label, centred on the ramp's left edge
  const legendHeight = drawLegend(ctx, model, legendX, 0, cssWidth - legendX - PAD);
  const titleHeight = 28;
  out.width = canvas.width;
  out.height = Math.ceil((titleHeight + cssHeight + legendHeight + PAD) * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, cssWidth, out.height / dpr);
  ctx.fillStyle = "#111827";
  ctx.font = `600 14px ${FONT}`;
  ctx.textBaseline = "middle";
  ctx.fillText(title, PAD, titleHeight / 2);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(canvas, 0, Math.round(titleHeight * dpr));
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  drawLegend(ctx, model, legendX, titleHeight + cssHeight + 4, cssWidth - legendX - PAD);
  return canvasToBlob(out);
}
