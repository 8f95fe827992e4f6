import type { EngineClient, SimulatedFault } from "../../engine/client";

export interface FaultControlsProps {
  client: EngineClient | null;
  onError(message: string): void;
}

/**
 * Fault injection for checking the engine's recovery by hand or from a script (shown with
 * `?debug` in the address): crash the worker, lose its WebGPU device, or make the next run wait
 * forever as a hung GPU does (the watchdog then abandons it; `?debug&watchdog=MS` shortens its wait).
 */
export function FaultControls({ client, onError }: FaultControlsProps) {
  const inject = (fault: SimulatedFault) => {
    client?.simulateFault(fault).catch((error: unknown) => {
      onError(`Could not simulate ${fault}: ${error instanceof Error ? error.message : String(error)}`);
    });
  };
  return (
    <section className="fault-controls" aria-label="Fault injection">
      <span>Debug:</span>
      <button type="button" data-testid="simulate-crash" disabled={!client} onClick={() => inject("crash")}>
        Crash the worker
      </button>
      <button type="button" data-testid="simulate-device-lost" disabled={!client} onClick={() => inject("device-lost")}>
        Lose the WebGPU device
      </button>
      <button type="button" data-testid="simulate-hang" disabled={!client} onClick={() => inject("hang")}>
        Hang the next run
      </button>
    </section>
  );
}
