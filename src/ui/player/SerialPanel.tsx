import { dataValue, f64, outputSymbol } from "../../compute/player/captions";
import type { Frame } from "../../compute/player/frame";
import type { Replay } from "../../compute/player/replay";

const signed = (text: string) => (text.startsWith("-") ? `(${text})` : text);

/** The serial recursion in float64, stepping in lockstep with the local scans (newest line first). */
export function SerialPanel({ replay: r, frame: f }: { replay: Replay; frame: Frame }) {
  const G = outputSymbol(r);
  const x = r.kind === "gae" ? "δ" : "r";
  const d = r.kind === "gae" ? "(γλ)" : "γ";
  const done = f.reveal.serialUpTo;
  return (
    <figure className="serial-panel" data-region="serial-panel">
      <figcaption>Serial loop (float64), the reference</figcaption>
      <pre className="serial-code">{`${G} = 0\nfor t = ${r.cols - 1} … 0:\n  ${G}_t = ${x}_t + ${d}·${G}_(t+1)`}</pre>
      <p className="serial-progress">
        {done === 0
          ? "not started"
          : done >= r.cols
            ? `done: ${r.cols} of ${r.cols} tokens`
            : `${done} of ${r.cols} tokens`}
        {r.rows > 1 ? ` · row ${f.focusRow}` : ""}
      </p>
      <ol className="serial-lines">
        {f.serialLines.map((line, n) => (
          <li key={line.t} className={n === 0 && f.step.phase === "local" ? "current" : undefined}>
            <span className="serial-t">t = {line.t}</span>
            <span>
              {f64(line.x)} + {d}·{signed(f64(line.next))}
            </span>
            <span>
              = <span data-value={dataValue(line.value)}>{f64(line.value)}</span>
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
