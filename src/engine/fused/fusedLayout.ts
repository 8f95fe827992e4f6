/**
 * How the fused kernel lays a `[B, T]` scan out on the device: a pure function of the shape, the
 * discount and the kind of adapter, so the choice is explicit and every branch can be tested.
 *
 * - `rows`: one invocation per row, a serial loop over the whole row (vec4 loads and stores when
 *   T is a multiple of 4, scalars otherwise). No barrier, no workgroup memory: on a software adapter
 *   (SwiftShader) this is the fastest design measured (../shared/KERNELS.md), and on any device it
 *   is right when there are enough rows to keep it busy.
 * - `segments`: one workgroup per row, each of its SEGMENT_LANES lanes a serial segment of
 *   ⌈T / lanes⌉ tokens; the lanes' zero-carry segment ends are joined by one serial carry loop over
 *   the segments (`carry_{k+1} = end_k + d^L·carry_k`) in workgroup memory, and each lane then
 *   rescans its segment from its carry. Parallel along the row, for few long rows on a real GPU.
 */

export const FUSED_LAYOUTS = ["rows", "segments"] as const;
export type FusedLayout = (typeof FUSED_LAYOUTS)[number];

/** What the layout choice may be forced to (tests force every layout; `auto` chooses). */
export type FusedLayoutRequest = FusedLayout | "auto";

/** Lanes of one `segments` workgroup: one row is cut into at most this many segments. */
export const SEGMENT_LANES = 64;

/**
 * On a real GPU, below this many rows one invocation per row leaves most of the device idle
 * (a few thousand invocations are needed to cover memory latency), so rows are cut into segments.
 */
export const MIN_ROWS_FOR_ROW_LAYOUT = 2048;

/** Rows shorter than this are not worth a barrier and a second pass: a lane scans them whole. */
export const MIN_COLS_FOR_SEGMENTS = 4 * SEGMENT_LANES;

/** Invocations per workgroup of the `rows` layout: SwiftShader's subgroup is 4 lanes; GPUs want 64. */
export const ROW_GROUP = { software: 4, hardware: 64 } as const;

export interface FusedShape {
  rows: number;
  cols: number;
}

export interface FusedAdapter {
  /** A software adapter (SwiftShader): barriers are very expensive there, serial lanes win. */
  software: boolean;
}

/** Everything the kernel's source and dispatch depend on, decided once per run. */
export interface FusedPlan {
  layout: FusedLayout;
  /** `rows` only: vec4 loads and stores (T a multiple of 4, so every row starts on a vec4). */
  vec4: boolean;
  /** `rows`: invocations per workgroup; `segments`: the lanes of a row. */
  workgroupSize: number;
  /** `segments` only: tokens per lane, ⌈T / SEGMENT_LANES⌉ (T for `rows`). */
  segmentLength: number;
}

/**
 * The layout for a shape. Rows with |fl32(d)| > 1 always run whole: the segment power d^L could
 * overflow float32 where no output does (0·∞ would then poison a carry).
 */
export function chooseFusedLayout(shape: FusedShape, discount: number, adapter: FusedAdapter): FusedLayout {
  if (adapter.software) return "rows";
  if (Math.abs(Math.fround(discount)) > 1) return "rows";
  if (shape.rows >= MIN_ROWS_FOR_ROW_LAYOUT || shape.cols < MIN_COLS_FOR_SEGMENTS) return "rows";
  return "segments";
}

/** The plan for a run: the chosen layout, or the one a test forces, with its sizes. */
export function fusedPlan(
  shape: FusedShape,
  discount: number,
  adapter: FusedAdapter,
  request: FusedLayoutRequest = "auto",
): FusedPlan {
  const layout = request === "auto" ? chooseFusedLayout(shape, discount, adapter) : request;
  if (layout === "rows") {
    return {
      layout,
      vec4: shape.cols % 4 === 0,
      workgroupSize: adapter.software ? ROW_GROUP.software : ROW_GROUP.hardware,
      segmentLength: shape.cols,
    };
  }
  return {
    layout,
    vec4: false,
    workgroupSize: SEGMENT_LANES,
    segmentLength: Math.max(1, Math.ceil(shape.cols / SEGMENT_LANES)),
  };
}

/** Reads a layout request (the SCANLAB_FUSED_LAYOUT flag); anything unknown is refused by name. */
export function parseLayoutRequest(value: unknown): FusedLayoutRequest {
  if (value === "auto" || (FUSED_LAYOUTS as readonly unknown[]).includes(value)) return value as FusedLayoutRequest;
  throw new Error(`SCANLAB_FUSED_LAYOUT must be auto, ${FUSED_LAYOUTS.join(" or ")}, got ${String(value)}`);
}

/** Whether an adapter is a software one, from what WebGPU reports about it. */
export function isSoftwareAdapter(info: { vendor?: string; architecture?: string; isFallbackAdapter?: boolean }) {
  return info.isFallbackAdapter === true || /swiftshader/i.test(`${info.vendor ?? ""} ${info.architecture ?? ""}`);
}
