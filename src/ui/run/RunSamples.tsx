import { type KeyboardEvent, memo, useEffect, useMemo, useRef } from "react";
import type { SampleRow } from "../../compute/run/runModel";
import { rowReader, type SampleTable } from "../../compute/run/sampleTable";
import { formatShort } from "../../io/formatNumber";
import { type Column, ColumnHeads } from "../ColumnHeads";
import { Term } from "../glossary/Term";
import { Spacer, useVirtualRows } from "./virtualRows";

export interface RunSamplesProps {
  /** Every sample's line, as the run worker sends them (columns, in a worst-first order). */
  table: SampleTable;
  selected: number;
  onSelect(index: number): void;
}

const SAMPLE_COLUMNS: Column[] = [
  { name: "sample" },
  { name: "rollout pos" },
  { name: "length" },
  { name: "reward" },
  { name: "masked" },
  {
    name: "advantages gap",
    head: (
      <>
        advantages <Term word="Gap">gap</Term>
      </>
    ),
    title: "largest |dump − reference| of the advantages",
  },
  { name: "returns gap", title: "largest |dump − reference| of the returns" },
  { name: "worst gap / bound", title: "the worst gap as a fraction of its token's float32 bound (pass ≤ 1)" },
  { name: "result", head: <Term word="Verdict">result</Term>, className: "verdict-pin" },
];
const COLUMNS = SAMPLE_COLUMNS.length;
/** Rows a Page Up or Page Down moves the selection. */
const PAGE_ROWS = 12;

const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;

/**
 * Every sample, worst first: its length, reward, masked share, and the worst gap to the reference
 * against its bound. Only the rows in view are in the page (a batch of 4,096 samples mounted at once
 * held the main thread for a second); the table keeps its full size for assistive technology through
 * aria-rowcount and aria-rowindex. The arrow keys, Page Up/Down, Home and End move the selection.
 */
export function RunSamples({ table, selected, onSelect }: RunSamplesProps) {
  // The order is the worker's (a new replay), never the selection's: choosing a sample sorts nothing.
  // A row's object is made when its line is drawn, and kept while the table lasts (SampleLine is memoised).
  const { order, placeOf, count } = table;
  const rowOf = useMemo(() => rowReader(table), [table]);
  const scroller = useRef<HTMLElement>(null);
  // The header sits above the rows in the scrolling box (and stays in view over them): the rows'
  // offsets start below it, and a row scrolled up into view stops below it. Read when aiming, not
  // kept: its height settles only once the fonts and the columns have.
  const head = useRef<HTMLTableSectionElement>(null);
  const { virtualizer, items, above, below } = useVirtualRows(count, scroller);
  const selectedPlace = selected >= 0 && selected < count ? placeOf[selected] : undefined;
  // The selected sample in view, whoever chose it (the heatmap, the keyboard, a replay's new order).
  useEffect(() => {
    if (selectedPlace === undefined) return;
    // Aimed by the rows' fixed heights; once the row is drawn (a frame or a few on), its real box
    // settles it (the header's fractional height, a row a larger font made taller).
    const box = scroller.current;
    const headHeight = head.current?.getBoundingClientRect().height ?? 0;
    const item = virtualizer.measurementsCache[selectedPlace];
    if (box && item) {
      const [start, end] = [headHeight + item.start, headHeight + item.end];
      if (end > box.scrollTop + box.clientHeight) box.scrollTop = end - box.clientHeight;
      else if (start < box.scrollTop + headHeight) box.scrollTop = start - headHeight;
    }
    let frames = 0;
    const settle = () => {
      frames += 1;
      if (!revealRow(scroller.current, selected, headHeight) && frames < 20) frame = requestAnimationFrame(settle);
    };
    let frame = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(frame);
  }, [selectedPlace, selected, virtualizer]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const from = selectedPlace ?? 0;
    const last = count - 1;
    const to =
      event.key === "ArrowDown"
        ? from + 1
        : event.key === "ArrowUp"
          ? from - 1
          : event.key === "PageDown"
            ? from + PAGE_ROWS
            : event.key === "PageUp"
              ? from - PAGE_ROWS
              : event.key === "Home"
                ? 0
                : event.key === "End"
                  ? last
                  : null;
    if (to === null || last < 0) return;
    event.preventDefault();
    // The focus stays on the table: the button that had it may scroll out of the page.
    scroller.current?.focus({ preventScroll: true });
    onSelect(order[Math.min(last, Math.max(0, to))]);
  };

  return (
    <div className="panel run-samples-panel">
      <h2 id="run-samples-title">Samples, worst first</h2>
      <section
        className="table-scroll"
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling table takes the arrow keys that move the selection.
        tabIndex={0}
        aria-labelledby="run-samples-title"
        aria-describedby="run-samples-keys"
        onKeyDown={onKeyDown}
      >
        <table className="run-samples" data-testid="run-samples" aria-rowcount={count + 1}>
          <thead ref={head}>
            <ColumnHeads columns={SAMPLE_COLUMNS} />
          </thead>
          <tbody>
            <Spacer height={above} columns={COLUMNS} />
            {items.map((item) => {
              const row = rowOf(order[item.index]) as SampleRow;
              return (
                <SampleLine
                  key={row.index}
                  row={row}
                  place={item.index}
                  isSelected={row.index === selected}
                  onSelect={onSelect}
                />
              );
            })}
            <Spacer height={below} columns={COLUMNS} />
          </tbody>
        </table>
      </section>
      <p className="muted small" id="run-samples-keys">
        {count} samples; ↑ ↓ (Page Up/Down, Home, End) in the table choose a sample.
      </p>
    </div>
  );
}

/** Scrolls the box just enough to show the sample's row whole, below the header that stays over the rows; false: the row is not drawn yet. */
function revealRow(box: HTMLElement | null, sample: number, headHeight: number): boolean {
  const row = box?.querySelector(`tbody tr[data-sample="${sample}"]`);
  if (!box || !row) return false;
  const r = row.getBoundingClientRect();
  const top = box.getBoundingClientRect().top + box.clientTop;
  const bottom = top + box.clientHeight;
  if (r.bottom > bottom) box.scrollTop += r.bottom - bottom;
  else if (r.top < top + headHeight) box.scrollTop -= top + headHeight - r.top;
  return true;
}

interface SampleLineProps {
  row: SampleRow;
  /** The row's place in the worst-first order (the virtualizer's index). */
  place: number;
  isSelected: boolean;
  onSelect(index: number): void;
}

/** A row re-renders only when its own sample, or whether it is the selected one, changes. */
const SampleLine = memo(function SampleLine({ row, place, isSelected, onSelect }: SampleLineProps) {
  const v = row.verdict;
  return (
    <tr
      data-sample={row.index}
      data-passed={v ? String(v.passed) : undefined}
      aria-selected={isSelected}
      aria-rowindex={place + 2}
      className={isSelected ? "selected" : undefined}
    >
      <td>
        <button type="button" onClick={() => onSelect(row.index)} aria-label={`Show sample ${row.index}`}>
          {row.index}
        </button>
      </td>
      <td>{row.rolloutPosition ?? "–"}</td>
      <td>{row.length}</td>
      <td>{formatShort(row.reward)}</td>
      <td>{percent(row.maskedShare)}</td>
      <td>{v ? formatShort(v.advantages.maxGap) : "–"}</td>
      <td>{v ? formatShort(v.returns.maxGap) : "–"}</td>
      <td title={v ? `${v.worstField}[${v.worstToken}]` : undefined}>
        {v ? `${formatShort(v.worstFraction)} at ${v.worstField}[${v.worstToken}]` : "–"}
      </td>
      <td className={v ? (v.passed ? "verdict-pin pass" : "verdict-pin fail") : "verdict-pin"}>
        {v ? (v.passed ? "within bound" : v.nonFinite ? "▲ NaN/∞" : "▲ over bound") : (row.status ?? "not replayed")}
      </td>
    </tr>
  );
});
