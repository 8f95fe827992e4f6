import type { ChartLegendModel } from "./chartLegend";

/**
 * PNG export of a token chart: the plot is SVG, so serialise it, draw it on a canvas at twice the
 * screen resolution with the title above and the legend below, and encode the canvas.
 */

/** What a chart offers its page: the Export menu calls toPng. */
export interface ChartHandle {
  /** The chart with its title and legend as a PNG (twice the screen resolution). */
  toPng(): Promise<Blob>;
}

const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
const PAD = 12;
const LINE = 18;

/** Standalone SVG markup of a chart: sizes fixed and the page's font inlined. */
export function serialiseSvg(svg: SVGSVGElement): { markup: string; width: number; height: number } {
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute("xmlns", "http://www.w3.org/2000/svg");
  clone.setAttribute("width", String(width));
  clone.setAttribute("height", String(height));
  clone.setAttribute("style", `font-family: ${FONT}; font-size: 12px`);
  return { markup: new XMLSerializer().serializeToString(clone), width, height };
}

async function loadImage(markup: string): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(new Blob([markup], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    return image;
  } finally {
    URL.revokeObjectURL(url);
  }
}

export function canvasToBlob(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("the browser could not encode the PNG"))),
      "image/png",
    ),
  );
}

/** Lines the legend takes at this width: entries flow left to right, then one line per note. */
function layoutLegend(ctx: CanvasRenderingContext2D, legend: ChartLegendModel, width: number) {
  const rows: { x: number; y: number; index: number }[] = [];
  let x = PAD;
  let y = 0;
  legend.entries.forEach((entry, index) => {
    const w = 34 + ctx.measureText(entry.label).width + 16;
    if (x + w > width - PAD && x > PAD) {
      x = PAD;
      y += LINE;
    }
    rows.push({ x, y, index });
    x += w;
  });
  return { rows, height: y + LINE + legend.notes.length * LINE };
}

/** `plot`: the chart's SVG (TokenPlot's). */
export async function chartPng(plot: SVGSVGElement, legend: ChartLegendModel, scale = 2): Promise<Blob> {
  const { markup, width, height } = serialiseSvg(plot);
  const image = await loadImage(markup);
  const canvas = document.createElement("canvas");
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("no 2D canvas to draw the PNG on");
  ctx.font = `12px ${FONT}`;
  const layout = layoutLegend(ctx, legend, width);
  const titleHeight = 28;
  const total = titleHeight + height + layout.height + PAD;
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(total * scale);
  ctx.scale(scale, scale);
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, total);
  ctx.fillStyle = "#111827";
  ctx.font = `600 14px ${FONT}`;
  ctx.textBaseline = "middle";
  ctx.fillText(legend.title, PAD, titleHeight / 2);
  ctx.drawImage(image, 0, titleHeight, width, height);
  ctx.font = `12px ${FONT}`;
  const top = titleHeight + height + 4;
  for (const { x, y, index } of layout.rows) {
    const entry = legend.entries[index];
    const cy = top + y + LINE / 2;
    if (entry.width === 0) {
      ctx.globalAlpha = 0.25;
      ctx.fillStyle = entry.colour;
      ctx.fillRect(x, cy - 5, 28, 10);
      ctx.globalAlpha = 1;
    } else {
      ctx.strokeStyle = entry.colour;
      ctx.lineWidth = entry.width;
      ctx.setLineDash(entry.dash ? entry.dash.split(" ").map(Number) : []);
      ctx.beginPath();
      ctx.moveTo(x, cy);
      ctx.lineTo(x + 28, cy);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.fillStyle = "#111827";
    ctx.fillText(entry.label, x + 34, cy);
  }
  ctx.fillStyle = "#4b5563";
  const notesTop = top + layout.height - legend.notes.length * LINE;
  legend.notes.forEach((note, i) => {
    ctx.fillText(note, PAD, notesTop + i * LINE + LINE / 2);
  });
  return canvasToBlob(canvas);
}
