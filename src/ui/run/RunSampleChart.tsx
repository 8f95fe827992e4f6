import { useMemo } from "react";
import type { GridInfo } from "../../compute/run/runGrid";
import type { SampleSeries } from "../../compute/run/sampleFields";
import { ReturnsChart } from "../charts/ReturnsChart";

/** No chunk lines: slime pads each data-parallel rank's samples to that rank's longest, so a dump's chunks fall differently per rank. */
const NO_BOUNDARIES: number[] = [];

export interface RunSampleChartProps {
  grid: Pick<GridInfo, "field" | "referenceIs">;
  /** The sample's index in the dump (its identity: the table's order changes with every replay). */
  sample: number;
  rolloutPosition: number | null;
  onDrawn(reference: ArrayLike<number>): void;
  /** The sample's series, for the page to know what to wait for. */
  series: SampleSeries;
}

/** The array the chart draws as its first line (and reports drawn): the stored KL itself where nothing recomputed it. */
export function chartReference(grid: Pick<GridInfo, "field" | "referenceIs">, series: SampleSeries): Float64Array {
  return grid.field === "kl" && grid.referenceIs === "zero" ? series.actual : series.reference;
}

/** The selected sample's field: the dump's stored values on the float64 reference (the KL: on the recomputed KL, or alone). */
export function RunSampleChart({ grid, sample, rolloutPosition, series, onDrawn }: RunSampleChartProps) {
  const labels = useMemo(() => {
    if (grid.field !== "kl")
      return {
        title: `${grid.field === "advantages" ? "Advantages" : "Returns"}, sample ${sample}`,
        reference: "float64 reference (Scanlab's replay)",
        chunked: "slime's stored float32 (the dump)",
      };
    return grid.referenceIs === "replayed"
      ? {
          title: `KL, sample ${sample}`,
          reference: "kl recomputed in float64 (Scanlab's replay)",
          chunked: "slime's stored kl (the dump)",
        }
      : { title: `KL, sample ${sample}`, reference: "slime's stored kl (the dump; not recomputed)", chunked: null };
  }, [grid, sample]);
  return (
    <div data-testid="run-sample-chart" data-sample={sample} data-field={grid.field}>
      <p className="muted small">
        Sample {sample} of the dump (rollout_position {rolloutPosition ?? "unknown"}), {series.reference.length} tokens.
      </p>
      <ReturnsChart
        title={labels.title}
        reference={chartReference(grid, series)}
        chunked={labels.chunked === null ? null : series.actual}
        referenceLabel={labels.reference}
        chunkedLabel={labels.chunked ?? ""}
        chunkBoundaries={NO_BOUNDARIES}
        lossMask={series.lossMask}
        onDrawn={onDrawn}
      />
    </div>
  );
}
