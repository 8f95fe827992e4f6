import { useRef } from "react";
import { formatShort } from "../../io/formatNumber";
import type { StepSummary } from "../../io/slimeDump";
import { type Column, ColumnHeads } from "../ColumnHeads";
import { Term } from "../glossary/Term";
import { Spacer, useVirtualRows } from "./virtualRows";

export interface RunStepRow {
  summary: StepSummary;
  notes: string[];
  /** Whether the step opens in the step view (a gathered train dump; slime's per-rank steps do not yet). */
  openable: boolean;
}

const percent = (share: number) => `${(share * 100).toFixed(1)}%`;

/** The step's worst gap as a share of its bound, advantages or returns, and which. */
function worstCell(s: StepSummary): { text: string; title?: string } {
  const a = s.worst.advantages;
  const r = s.worst.returns;
  const worst = a && (!r || a.share >= r.share) ? { field: "advantages", w: a } : r ? { field: "returns", w: r } : null;
  if (!worst) return { text: "–" };
  return {
    text: `${formatShort(worst.w.share)} (${worst.field})`,
    title: `sample ${worst.w.sample}, token ${worst.w.token}: gap ${formatShort(worst.w.gap)}, bound ${formatShort(worst.w.bound)}`,
  };
}

const STEP_COLUMNS: Column[] = [
  { name: "step" },
  { name: "samples" },
  { name: "tokens" },
  { name: "verdict", head: <Term word="Verdict">verdict</Term>, className: "verdict-pin" },
  {
    name: "worst gap / bound",
    head: (
      <>
        worst <Term word="Gap">gap</Term> / <Term word="Bound">bound</Term>
      </>
    ),
    title: "the token whose gap is the largest share of its float32 bound (pass ≤ 1)",
  },
  { name: "reward mean ± std", title: "raw rewards where the dump has them, else the reward trained on" },
  { name: "KL mean", title: "the stored kl, over the tokens with loss mask 1" },
  { name: "length mean / max" },
  { name: "truncated", title: "samples whose rollout status is truncated (known with the rollout dump)" },
  { name: "padding", head: <Term word="Padding">padding</Term>, title: "of slime's padded [samples, longest] scan" },
];
const COLUMNS = STEP_COLUMNS.length;

/**
 * One row per step of a run, in rollout-id order: its size, verdict and trends. `data-passed` only
 * where the step was checked: a step not checked claims nothing. Only the rows in view are in the
 * page (a run of a thousand steps); aria-rowcount and aria-rowindex keep the whole table's size.
 */
export function RunSteps({ rows, onOpen }: { rows: readonly RunStepRow[]; onOpen(step: number): void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const { items, above, below } = useVirtualRows(rows.length, scroller);
  return (
    <div className="table-scroll" ref={scroller}>
      <table className="run-samples run-steps" data-testid="run-steps" aria-rowcount={rows.length + 1}>
        <thead>
          <ColumnHeads columns={STEP_COLUMNS} />
        </thead>
        <tbody>
          <Spacer height={above} columns={COLUMNS} />
          {items.map((item) => {
            const { summary: s, notes, openable } = rows[item.index];
            const worst = worstCell(s);
            const checked = s.verdict !== "not checked";
            return (
              <tr
                key={s.step}
                aria-rowindex={item.index + 2}
                data-step={s.step}
                data-passed={checked ? String(s.verdict === "passed") : undefined}
                data-verdict={s.verdict}
                title={[s.why, ...notes].filter(Boolean).join("\n") || undefined}
                // The whole row opens its step for a pointer; the step's button is the keyboard's way in.
                className={openable ? "opens" : undefined}
                onClick={openable ? () => onOpen(s.step) : undefined}
              >
                <td>
                  {openable ? (
                    <button
                      type="button"
                      onClick={(e) => {
                        e.stopPropagation();
                        onOpen(s.step);
                      }}
                      aria-label={`Open step ${s.step}`}
                    >
                      {s.step}
                    </button>
                  ) : (
                    s.step
                  )}
                </td>
                <td>{s.samples}</td>
                <td>{s.tokens}</td>
                <td className={s.verdict === "failed" ? "verdict-pin fail" : "verdict-pin"}>
                  {s.verdict === "passed" ? "within bound" : s.verdict === "failed" ? "▲ departs" : "not checked"}
                </td>
                <td title={worst.title}>{worst.text}</td>
                <td>{s.reward ? `${formatShort(s.reward.mean)} ± ${formatShort(s.reward.std)}` : "–"}</td>
                <td>{s.klMean === null ? "–" : formatShort(s.klMean)}</td>
                <td>{s.samples > 0 ? `${s.length.mean.toFixed(0)} / ${s.length.max}` : "–"}</td>
                <td>{s.truncatedShare === null ? "–" : percent(s.truncatedShare)}</td>
                <td>{s.samples > 0 ? percent(s.paddingShare) : "–"}</td>
              </tr>
            );
          })}
          <Spacer height={below} columns={COLUMNS} />
        </tbody>
      </table>
    </div>
  );
}
