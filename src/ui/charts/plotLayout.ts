/**
 * Horizontal layout shared by the charts and the heatmap, so that stacked at the same width their
 * token axes line up pixel for pixel: the plot starts PLOT_LEFT px from the left edge (room for the
 * y axis or the row labels) and ends PLOT_RIGHT px before the right edge.
 */
export const PLOT_LEFT = 72;
export const PLOT_RIGHT = 16;

/** Okabe–Ito colours (colour-blind safe) for the series, and dashes so they differ without colour. */
export const SERIES = {
  reference: { colour: "#0072B2", dash: undefined, width: 2.5 },
  chunked: { colour: "#D55E00", dash: "5 4", width: 1.25 },
  serialLoop: { colour: "#009E73", dash: "1.5 2.5", width: 1.5 },
  bound: { colour: "#000000", dash: "8 3 2 3", width: 1 },
  /** A third line from elsewhere: what a slime dump stored for the row (the playground's dump comparison). */
  stored: { colour: "#CC79A7", dash: "1 3", width: 2 },
} as const;

export const MASK_FILL = "#6b7280";
export const BOUNDARY_STROKE = "#9ca3af";
/** Chunk lines when they are crowded (see drawableBoundaries). */
export const BOUNDARY_STROKE_FAINT = "#d8dce2";
export const HOVER_STROKE = "#111827";
export const NON_FINITE_FILL = "#D55E00";
