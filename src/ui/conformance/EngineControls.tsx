import { BACKEND_REQUESTS, type BackendRequest } from "../../engine/backendNames";
import { STRATEGIES, STRATEGY_INFO, type Strategy } from "../../engine/strategy";

export interface EngineControlsProps {
  backend: BackendRequest;
  strategy: Strategy;
  onBackend(backend: BackendRequest): void;
  onStrategy(strategy: Strategy): void;
}

const BACKEND_LABELS: Record<BackendRequest, string> = {
  auto: "auto (best available)",
  webgpu: "webgpu",
  webgl: "webgl",
  wasm: "wasm",
  cpu: "cpu",
};

/** The backend to ask for and the scan strategy to run; both also live in the URL. */
export function EngineControls({ backend, strategy, onBackend, onStrategy }: EngineControlsProps) {
  return (
    <section className="engine-controls" aria-label="Engine">
      <label>
        Ask for backend{" "}
        <select
          value={backend}
          data-testid="backend-select"
          onChange={(event) => onBackend(event.currentTarget.value as BackendRequest)}
        >
          {BACKEND_REQUESTS.map((name) => (
            <option key={name} value={name}>
              {BACKEND_LABELS[name]}
            </option>
          ))}
        </select>
      </label>
      <label>
        Strategy{" "}
        <select
          value={strategy}
          data-testid="strategy-select"
          onChange={(event) => onStrategy(event.currentTarget.value as Strategy)}
        >
          {STRATEGIES.map((name) => (
            <option key={name} value={name}>
              {STRATEGY_INFO[name].label}
            </option>
          ))}
        </select>
      </label>
      <p className="strategy-description">{STRATEGY_INFO[strategy].description}</p>
    </section>
  );
}
