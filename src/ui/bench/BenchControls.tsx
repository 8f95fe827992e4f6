import type { ReactNode } from "react";
import { STRATEGY_STYLE } from "../../compute/bench/benchChartData";
import { BENCH_STRATEGIES, type BenchStrategy, JS_LOOP, MIN_REPS, sizeLabel } from "../../compute/bench/benchPlan";
import {
  PANEL_CHUNKS,
  PANEL_SIZES,
  PANEL_SKIP_MS,
  type PanelSettings,
  toggled,
} from "../../compute/bench/panelSettings";
import { BACKENDS } from "../../names/backends";
import { Term } from "../glossary/Term";
import { OptionSelect } from "../OptionSelect";
import { STRATEGY_INFO } from "../strategyWords";
import { ToolbarButton } from "../ToolbarButton";

export interface BenchControlsProps {
  settings: PanelSettings;
  onChange(settings: PanelSettings): void;
  running: boolean;
  problems: string[];
  onRun(): void;
  onCancel(): void;
}

const SIZE_LABELS = PANEL_SIZES.map(sizeLabel);

function strategyHint(s: BenchStrategy): string {
  if (s === JS_LOOP) return "G = r + γ·G over a Float32Array, no tfjs: the floor every strategy is held against.";
  return STRATEGY_INFO[s].description;
}

interface ChecksProps<T extends string> {
  options: readonly T[];
  chosen: readonly T[];
  onChange(chosen: T[]): void;
  /** What a box says (the option itself by default). */
  label?(option: T): ReactNode;
  title?(option: T): string;
}

/** One checkbox per option; the chosen ones keep the options' order. */
function Checks<T extends string>({ options, chosen, onChange, label = (o) => o, title }: ChecksProps<T>) {
  return options.map((option) => (
    <label key={option} title={title?.(option)}>
      <input
        type="checkbox"
        checked={chosen.includes(option)}
        onChange={(e) => onChange(toggled(chosen, option, e.target.checked, options))}
      />
      {label(option)}
    </label>
  ));
}

/** The panel's settings: what to measure, how often, and the run and cancel buttons. */
export function BenchControls({ settings, onChange, running, problems, onRun, onCancel }: BenchControlsProps) {
  const set = (patch: Partial<PanelSettings>) => onChange({ ...settings, ...patch });
  return (
    <form
      className="bench-controls"
      aria-label="Benchmark settings"
      onSubmit={(e) => {
        e.preventDefault();
        if (!running) onRun();
      }}
    >
      <fieldset disabled={running}>
        <legend>
          <Term word="Backend">Backends</Term>
        </legend>
        <Checks options={BACKENDS} chosen={settings.backends} onChange={(backends) => set({ backends })} />
      </fieldset>
      <fieldset disabled={running}>
        <legend>
          <Term word="Strategy">Strategies</Term>
        </legend>
        <Checks
          options={BENCH_STRATEGIES}
          chosen={settings.strategies}
          onChange={(strategies) => set({ strategies })}
          title={strategyHint}
          label={(s) => (
            <>
              <span className="swatch" style={{ borderColor: STRATEGY_STYLE[s].colour }} aria-hidden="true" />
              {STRATEGY_STYLE[s].label}
              {s === "fused" ? <span className="muted"> (webgpu only)</span> : null}
            </>
          )}
        />
      </fieldset>
      <fieldset disabled={running}>
        <legend>Sizes (rows × tokens)</legend>
        <Checks
          options={SIZE_LABELS}
          chosen={settings.sizes}
          onChange={(sizes) => set({ sizes })}
          label={(z) => (
            <>
              {z}
              {z === SIZE_LABELS[2] ? <span className="muted"> (minutes without a GPU)</span> : null}
            </>
          )}
        />
      </fieldset>
      <fieldset disabled={running} className="bench-numbers">
        <legend>Runs</legend>
        <label>
          Runs per row (median of)
          <input
            type="number"
            min={MIN_REPS}
            max={100}
            step={1}
            value={Number.isFinite(settings.reps) ? settings.reps : ""}
            onChange={(e) => set({ reps: e.target.value === "" ? Number.NaN : Number(e.target.value) })}
          />
        </label>
        <label>
          Chunk size C
          <OptionSelect
            options={PANEL_CHUNKS}
            value={settings.chunkSize}
            onChoose={(chunkSize) => set({ chunkSize })}
          />
        </label>
        <label>
          <input type="checkbox" checked={settings.sweep} onChange={(e) => set({ sweep: e.target.checked })} />
          Chunk-size sweep (C = {PANEL_CHUNKS[0]} … {PANEL_CHUNKS[PANEL_CHUNKS.length - 1]}) at
        </label>
        <label className="sr-only" htmlFor="bench-sweep-size">
          Sweep size
        </label>
        <OptionSelect
          id="bench-sweep-size"
          options={SIZE_LABELS}
          value={settings.sweepSize}
          disabled={!settings.sweep}
          onChoose={(sweepSize) => set({ sweepSize })}
        />
      </fieldset>
      <div className="bench-actions">
        <ToolbarButton submit className="primary" disabled={running || problems.length > 0} testId="bench-run">
          Run benchmark
        </ToolbarButton>
        <ToolbarButton onClick={onCancel} disabled={!running} testId="bench-cancel">
          Cancel
        </ToolbarButton>
        <p className="muted small">
          Warm-up run excluded; median of the runs; every run checked against float64. Per-token rows estimated over{" "}
          {PANEL_SKIP_MS / 1000} s are skipped.
        </p>
      </div>
      {problems.length > 0 ? (
        <ul className="bench-problems" data-testid="bench-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </form>
  );
}
