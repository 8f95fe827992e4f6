import { useEffect, useMemo, useRef, useState } from "react";
import type { PictureAsk, PictureSource, PooledPicture } from "../../compute/heatmap/picture";
import { colourPicture } from "../../compute/heatmap/picture";
import { poolByMax } from "../../compute/playground/pooling";
import type { HeatmapData } from "./heatmapModel";

/** A picture with the data it was pooled from; `current` is false for the blank frame shown before the first. */
export interface Shown {
  data: HeatmapData;
  picture: PooledPicture;
  current: boolean;
  source: PictureSource | null;
}

const KEYS = [
  "rows",
  "cols",
  "lengths",
  "reference",
  "actual",
  "lossMask",
  "bound",
  "cells",
  "hasBound",
  "chunkBoundaries",
  "metric",
  "precision",
] as const satisfies readonly (keyof HeatmapData)[];
// Every field of HeatmapData is listed: a field added there and not here fails to compile.
const listed: Exclude<keyof HeatmapData, (typeof KEYS)[number]> extends never ? true : never = true;
void listed;

/** True when every input is the same (by identity) as the one the picture was drawn from. */
export function sameData(a: HeatmapData, b: HeatmapData): boolean {
  return KEYS.every((k) => a[k] === b[k]);
}

/** The data of a heatmap's props, without the rest. */
function dataOf(props: HeatmapData): HeatmapData {
  const data: Partial<Record<keyof HeatmapData, unknown>> = {};
  for (const k of KEYS) data[k] = props[k];
  return data as HeatmapData;
}

/** No rows of the same kind of data: the frame shown while the first picture is pooled by a worker. */
function blank(props: HeatmapData, ask: PictureAsk): Shown {
  const empty = new Float64Array(0);
  const data = { ...dataOf(props), rows: 0, lengths: [], reference: empty, actual: empty };
  const grid = poolByMax({ rows: 0, cols: props.cols, lengths: [], error: empty, ...ask });
  return { data, picture: colourPicture(grid, 0, -1), current: false, source: null };
}

/**
 * The heatmap's picture for its room (`bins`) and colour scope (`colourRow`, −1 for the batch), from its source: pooled in this render where the
 * source is `here` (or the worker sent it with the data, for this ask), else asked of the worker that owns the data, the last picture shown (with the
 * data it was pooled from) staying until the answer comes. Only the newest ask is drawn.
 */
export function usePicture(
  props: HeatmapData & { source: PictureSource },
  bins: { maxBinsX: number; maxBinsY: number; colourRow: number; measured: boolean },
): Shown {
  const { source, metric, precision } = props;
  // Nothing is asked before the room is measured: a picture for a guessed room is pooled, sent and drawn for nothing.
  const { maxBinsX, maxBinsY, colourRow, measured } = bins;
  // A source stands for its data: the data read with a picture are those of the render that asked.
  const latest = useRef(props);
  latest.current = props;
  const here = useMemo<Shown | null>(() => {
    if (!measured) return null;
    const ask = { maxBinsX, maxBinsY, metric, precision, colourRow };
    const picture = source.at === "here" ? source.picture(ask) : (source.ready?.(ask) ?? null);
    return picture && { data: dataOf(latest.current), picture, current: true, source };
  }, [source, maxBinsX, maxBinsY, metric, precision, colourRow, measured]);

  const [fromWorker, setFromWorker] = useState<Shown | null>(null);
  useEffect(() => {
    if (source.at !== "worker" || here || !measured) return;
    let live = true;
    const data = dataOf(latest.current);
    source.picture({ maxBinsX, maxBinsY, metric, precision, colourRow }).then(
      (picture) => {
        if (live && picture) setFromWorker({ data, picture, current: true, source });
      },
      () => {
        // Superseded by a newer ask, or the worker was stopped: the last picture stays.
      },
    );
    return () => {
      live = false;
    };
  }, [source, here, maxBinsX, maxBinsY, metric, precision, colourRow, measured]);

  const last = useRef<Shown | null>(null);
  const shown =
    here ??
    (fromWorker && fromWorker.source === source ? fromWorker : null) ??
    last.current ??
    blank(props, { maxBinsX, maxBinsY, metric, precision, colourRow });
  last.current = shown;
  return shown;
}
