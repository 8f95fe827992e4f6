import katex from "katex";
import "katex/dist/katex.min.css";
import { useLayoutEffect, useRef } from "react";
import { f32, operand32 } from "../../compute/player/captions";
import { derivation, inputTex, localSumTex, serialTex } from "../../compute/player/formula";
import type { Replay } from "../../compute/player/replay";
import { TermsText } from "../glossary/TermsText";
import { PLAYER_WORDS } from "./playerWords";
import type { Inspected } from "./Stage";

/**
 * Typesets TeX built from formatted numbers only (never user text) into its element. Inline
 * (text-style) maths, so KaTeX may break a long line after its = and + signs; whatever still does
 * not fit (one long term) is scaled down to the card's width instead of running out of it.
 */
function Tex({ tex }: { tex: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    katex.render(tex, element, { displayMode: false, throwOnError: false, output: "htmlAndMathml" });
    const shrinkToFit = () => {
      element.style.fontSize = "";
      const room = element.clientWidth;
      const needed = element.scrollWidth;
      if (room > 0 && needed > room) element.style.fontSize = `${Math.floor((100 * room) / needed) - 1}%`;
    };
    shrinkToFit();
    if (typeof ResizeObserver !== "function") return;
    let width = element.clientWidth;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth === width) return;
      width = element.clientWidth;
      shrinkToFit();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [tex]);
  return <div ref={ref} className="tex" />;
}

/** The card of one stage cell: its number and how it was made, with the run's real numbers. */
export function FormulaCard({ replay: r, target, onClose }: { replay: Replay; target: Inspected; onClose(): void }) {
  const { b, t } = target;
  const i = r.cols - 1 - t;
  const chunk = Math.floor(i / r.chunkSize);
  const k = i - chunk * r.chunkSize;
  const G = r.kind === "gae" ? "A" : "G";
  const where = `row ${b}, chunk ${chunk}, k = ${k}`;
  let title: string;
  let lines: string[];
  let extra: string | undefined;
  if (target.lane === "input") {
    title = `Input at t = ${t} (${where})`;
    lines = inputTex(r, b, t);
  } else if (target.lane === "serial") {
    title = `Serial float64 ${G}_${t} (${where})`;
    lines = serialTex(r, b, t);
  } else if (target.lane === "local") {
    title = `Local sum at t = ${t} (${where})`;
    lines = [localSumTex(r, b, chunk, k)];
  } else {
    const d = derivation(r, b, t);
    title = `${G}_${t} (${where})`;
    lines = d.tex;
    if (target.lane === "returns" && r.gae) {
      const j = b * r.cols + t;
      extra = `R_t = A_t + V_t = ${f32(r.engineOut[j])} + ${operand32(r.gae.values[j])} = ${f32(r.gae.returns[j])}`;
    }
  }
  return (
    <aside className="formula-card" data-testid="formula-card" aria-live="polite" aria-label={title}>
      <header>
        <strong>
          <TermsText text={title} phrases={PLAYER_WORDS} />
        </strong>
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
