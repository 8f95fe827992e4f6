import { type AdapterInfo, BACKEND_REQUESTS, type BackendRequest } from "../../names/backends";
import type { Strategy } from "../../names/strategies";
import { StrategyTerm } from "../glossary/StrategyTerm";
import { Term } from "../glossary/Term";
import { OptionSelect } from "../OptionSelect";
import { STRATEGY_INFO, strategyMenu } from "../strategyWords";
import { backendMenuLabels } from "./backendLabels";

export interface EngineControlsProps {
  backend: BackendRequest;
  /** The backend that really runs (from the worker's report or its last run); null while none is up. */
  running: string | null;
  /** The WebGPU adapter, when webgpu runs. */
  adapter: AdapterInfo | null;
  strategy: Strategy;
  onBackend(backend: BackendRequest): void;
  onStrategy(strategy: Strategy): void;
}

/**
 * The backend to ask for and the scan strategy to run; both also live in the URL. Beside the
 * menu, and in its chosen option, the backend that really runs: after a fallback or a crash it is
 * not the one asked for. The strategy menu offers what that backend can run (fused: webgpu only).
 */
export function EngineControls({ backend, running, adapter, strategy, onBackend, onStrategy }: EngineControlsProps) {
  const labels = backendMenuLabels(backend, running);
  const strategies = strategyMenu(running, backend, strategy);
  return (
    <section className="engine-controls" aria-label="Engine">
      <label>
        Ask for backend{" "}
        <OptionSelect
          options={BACKEND_REQUESTS}
          value={backend}
          optionLabel={(name) => labels[name]}
          testId="backend-select"
          onChoose={onBackend}
        />
      </label>
      <Term word="Backend" />
      <p className="engine-running">
        Runs on: <strong data-testid="backend">{running ?? "not running"}</strong>
        {adapter ? (
          <>
            {" "}
            · Adapter: <span data-testid="adapter">{describeAdapter(adapter)}</span>
          </>
        ) : null}
      </p>
      <label>
        Strategy{" "}
        <OptionSelect
          options={strategies.options}
          value={strategies.value}
          optionLabel={(name) => STRATEGY_INFO[name].label}
          testId="strategy-select"
          onChoose={onStrategy}
        />
      </label>
      <Term word="Strategy" />
      <p className="strategy-description">
        <StrategyTerm strategy={strategies.value} />: {STRATEGY_INFO[strategies.value].description}
      </p>
    </section>
  );
}

/** `google swiftshader (fallback adapter: a software renderer, no GPU)`. */
export function describeAdapter(adapter: AdapterInfo): string {
  const name = [adapter.vendor, adapter.architecture, adapter.description].filter(Boolean).join(" ") || "unnamed";
  return adapter.isFallbackAdapter ? `${name} (fallback adapter: a software renderer, no GPU)` : name;
}
