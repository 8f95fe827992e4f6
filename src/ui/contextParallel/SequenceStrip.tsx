import type { CpStep } from "../../compute/contextParallel/cpSteps";
import type { CpLayout } from "../../core";
import { labelColor, rankColor, stripGeometry } from "./cpGeometry";

const REGION_LABEL = { prompt: "prompt", response: "response", padding: "pad" } as const;

/**
 * The whole sample on one axis: prompt, response and padding above; the 2n chunks, coloured by
 * rank and labelled with it; the response's logits (one position left of its tokens) below.
 */
export function SequenceStrip({ layout, width, step }: { layout: CpLayout; width: number; step: CpStep }) {
  const geometry = stripGeometry(layout, width);
  const highlightLogits = step === "shift";
  const xP = (layout.promptLength / layout.paddedLength) * width;
  const ticks: { x: number; label: string; anchor: "start" | "middle" | "end" }[] = [
    { x: 0, label: "0", anchor: "start" },
    { x: width, label: `${layout.paddedLength}`, anchor: "end" },
  ];
  // The prompt's end only where it has room between the two ends.
  if (xP > 40 && xP < width - 60) ticks.push({ x: xP, label: `P = ${layout.promptLength}`, anchor: "middle" });
  return (
    <svg
      className="cp-strip"
      width={width}
      height={96}
      role="img"
      aria-label={`The sample: ${layout.promptLength} prompt and ${layout.responseLength} response tokens, padded to ${layout.paddedLength}, in ${2 * layout.cpSize} chunks of ${layout.chunkLength} over ${layout.cpSize} ranks`}
      data-testid="cp-strip"
      data-cp-size={layout.cpSize}
      data-chunks={geometry.chunks.length}
    >
      <defs>
        <pattern id="cp-hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="6" height="6" fill="#f3f4f6" />
          <line x1="0" y1="0" x2="0" y2="6" stroke="#9ca3af" strokeWidth="2" />
        </pattern>
      </defs>
      {geometry.regions.map((r) => (
        <g key={r.kind} className={`cp-region ${r.kind}`}>
          <rect className="cp-region-bar" x={r.x} y={0} width={Math.max(r.width, 1)} height={16} />
          <title>{`${REGION_LABEL[r.kind]}: positions ${r.start}–${r.end - 1}`}</title>
          {r.width > 60 ? (
            <text className="cp-region-label" x={r.x + 4} y={12}>
              {`${REGION_LABEL[r.kind]} ${r.end - r.start}`}
            </text>
          ) : null}
        </g>
      ))}
      {geometry.chunks.map((c) => {
        const fill = rankColor(c.rank, layout.cpSize);
        return (
          <g key={c.chunk} data-testid="cp-chunk" data-rank={c.rank} data-chunk={c.chunk}>
            <rect x={c.x} y={20} width={c.width} height={36} fill={fill} stroke="#fff" strokeWidth={1} />
            <title>{`chunk ${c.chunk}: positions ${c.start}–${c.end - 1}, rank ${c.rank}`}</title>
            {c.width >= 18 ? (
              <text x={c.x + c.width / 2} y={36} fill={labelColor(fill)} className="cp-chunk-rank">
                {`r${c.rank}`}
              </text>
            ) : null}
            {c.width >= 30 ? (
              <text x={c.x + c.width / 2} y={50} fill={labelColor(fill)} className="cp-chunk-index">
                {`c${c.chunk}`}
              </text>
            ) : null}
          </g>
        );
      })}
      <g className={`cp-logits${highlightLogits ? " highlight" : ""}`}>
        <rect
          className="cp-logits-bar"
          x={geometry.logits.x}
          y={60}
          width={Math.max(geometry.logits.width, 1)}
          height={10}
        />
        <title>{`the response's logits: positions ${layout.promptLength - 1}–${layout.totalLength - 2}`}</title>
        <text className="cp-logits-label" x={Math.min(geometry.logits.x + 4, width - 150)} y={82}>
          {`response logits ${layout.promptLength - 1}–${layout.totalLength - 2}`}
        </text>
      </g>
      {ticks.map((t) => (
        <text key={t.label} className="cp-tick" x={t.x} y={94} textAnchor={t.anchor}>
          {t.label}
        </text>
      ))}
    </svg>
  );
}
