import { BENCH_STRATEGIES, type BenchStrategy, JS_LOOP, MIN_REPS, sizeLabel } from "../../compute/bench/benchPlan";
import { BACKENDS } from "../../names/backends";
import { Term } from "../glossary/Term";
import { STRATEGY_INFO } from "../strategyWords";
import { ToolbarButton } from "../ToolbarButton";
import { STRATEGY_STYLE } from "./benchChartData";
import { PANEL_CHUNKS, PANEL_SIZES, PANEL_SKIP_MS, type PanelSettings, toggled } from "./panelSettings";

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
        {BACKENDS.map((b) => (
          <label key={b}>
            <input
              type="checkbox"
              checked={settings.backends.includes(b)}
              onChange={(e) => set({ backends: toggled(settings.backends, b, e.target.checked, BACKENDS) })}
            />
            {b}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={running}>
        <legend>
          <Term word="Strategy">Strategies</Term>
        </legend>
        {BENCH_STRATEGIES.map((s) => (
          <label key={s} title={strategyHint(s)}>
            <input
              type="checkbox"
              checked={settings.strategies.includes(s)}
              onChange={(e) => set({ strategies: toggled(settings.strategies, s, e.target.checked, BENCH_STRATEGIES) })}
            />
            <span className="swatch" style={{ borderColor: STRATEGY_STYLE[s].colour }} aria-hidden="true" />
            {STRATEGY_STYLE[s].label}
            {s === "fused" ? <span className="muted"> (webgpu only)</span> : null}
          </label>
        ))}
      </fieldset>
      <fieldset disabled={running}>
        <legend>Sizes (rows × tokens)</legend>
        {SIZE_LABELS.map((z) => (
          <label key={z}>
            <input
              type="checkbox"
              checked={settings.sizes.includes(z)}
              onChange={(e) => set({ sizes: toggled(settings.sizes, z, e.target.checked, SIZE_LABELS) })}
            />
            {z}
            {z === SIZE_LABELS[2] ? <span className="muted"> (minutes without a GPU)</span> : null}
          </label>
        ))}
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
          <select value={settings.chunkSize} onChange={(e) => set({ chunkSize: Number(e.target.value) })}>
            {PANEL_CHUNKS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={settings.sweep} onChange={(e) => set({ sweep: e.target.checked })} />
          Chunk-size sweep (C = {PANEL_CHUNKS[0]} … {PANEL_CHUNKS[PANEL_CHUNKS.length - 1]}) at
        </label>
        <label className="sr-only" htmlFor="bench-sweep-size">
          Sweep size
        </label>
        <select
          id="bench-sweep-size"
          value={settings.sweepSize}
          disabled={!settings.sweep}
          onChange={(e) => set({ sweepSize: e.target.value })}
        >
          {SIZE_LABELS.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
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
