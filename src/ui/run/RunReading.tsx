import type { OpenProgress } from "../../compute/run/runWorker";
import { countText } from "../../io/countText";

/** A read in progress: what is read, how far, and a way out. */
export interface Reading {
  names: string;
  startedAt: number;
  now: number;
  progress: OpenProgress | null;
}

/**
 * The step view's read of a file: its bytes with a bar, the rate and the time left (a 1.5 GB dump
 * takes half a minute or more), then the two passes over its numbers; Cancel keeps the dump open before.
 */
export function RunReading({ reading, onCancel }: { reading: Reading; onCancel: () => void }) {
  const { names, progress: p } = reading;
  const seconds = (reading.now - reading.startedAt) / 1000;
  let bar = <progress />;
  let text = `Reading ${names}…`;
  if (p?.stage === "read") {
    const rate = seconds > 0 ? p.bytes / seconds : 0;
    const left = rate > 0 && p.bytes < p.total ? (p.total - p.bytes) / rate : null;
    bar = <progress max={p.total} value={p.bytes} />;
    text = `Reading ${names}: ${mib(p.bytes)} of ${mib(p.total)} MiB${rate > 0 ? ` · ${(rate / 1e6).toFixed(0)} MB/s` : ""}${left !== null ? ` · about ${Math.ceil(left)} s left` : ""}`;
  } else if (p?.stage === "settings") {
    text = `Reading the run's settings off ${names}'s numbers…`;
  } else if (p?.stage === "check") {
    text = `Checking every sample of ${names} against the float64 reference…`;
  }
  return (
    <div className="run-progress" data-testid="run-open-progress">
      {bar}
      <span className="small" role="status">
        {text}
      </span>
      <button type="button" onClick={onCancel} data-testid="run-open-cancel">
        Cancel
      </button>
    </div>
  );
}

function mib(bytes: number): string {
  return countText(Math.round(bytes / 2 ** 20));
}
