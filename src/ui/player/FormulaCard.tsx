import katex from "katex";
import "katex/dist/katex.min.css";
import { useEffect, useRef } from "react";
import { f32, operand32 } from "./captions";
import { derivation, localSumTex } from "./formula";
import type { Replay } from "./replay";
import type { Inspected } from "./Stage";

/** Typesets TeX built from formatted numbers only (never user text) into its element. */
function Tex({ tex }: { tex: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ref.current)
      katex.render(tex, ref.current, { displayMode: true, throwOnError: false, output: "htmlAndMathml" });
  }, [tex]);
  return <div ref={ref} className="tex" />;
}

/** The arithmetic behind an output (or a local sum) with the run's real numbers. */
export function FormulaCard({ replay: r, target, onClose }: { replay: Replay; target: Inspected; onClose(): void }) {
  const { b, t } = target;
  const i = r.cols - 1 - t;
  const chunk = Math.floor(i / r.chunkSize);
  const k = i - chunk * r.chunkSize;
  const G = r.kind === "gae" ? "A" : "G";
  let title: string;
  let lines: string[];
  let extra: string | undefined;
  if (target.lane === "local") {
    title = `Local sum at t = ${t} (row ${b}, chunk ${chunk}, k = ${k})`;
    lines = [localSumTex(r, b, chunk, k)];
  } else {
    const d = derivation(r, b, t);
    title = `${G}_${t} (row ${b}, chunk ${chunk}, k = ${k})`;
    lines = d.tex;
    if (target.lane === "returns" && r.gae) {
      const j = b * r.cols + t;
      extra = `R_t = A_t + V_t = ${f32(r.engineOut[j])} + ${operand32(r.gae.values[j])} = ${f32(r.gae.returns[j])}`;
    }
  }
  return (
    <aside className="formula-card" data-testid="formula-card" aria-live="polite" aria-label={title}>
      <header>
        <strong>{title}</strong>
        <button type="button" className="formula-card-close" onClick={onClose} aria-label="Close the formula card">
          ×
        </button>
      </header>
      {lines.map((tex) => (
        <Tex key={tex} tex={tex} />
      ))}
      {extra ? <p className="formula-extra">{extra}</p> : null}
    </aside>
  );
}
