import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useRef } from "react";
import type { CaseInfo } from "../../compute/conformance/caseBook";
import type { CaseRow } from "../../compute/conformance/runConformance";
import { VERDICT_WORDS as GLOSSARY } from "../../conformance/verdictWords";
import { formatBoundFraction, formatError, formatMillis, rowState } from "./verdictFormat";
import "./conformance.css";
import { type Column, ColumnHeads } from "../ColumnHeads";
import { Term } from "../glossary/Term";

export interface VerdictTableProps {
  cases: CaseInfo[];
  /** Indexed like `cases`; a hole is a case not finished yet. */
  rows: (CaseRow | undefined)[];
  /** The indices of the cases to list (every case, or the failing ones), in order. */
  listed: number[];
  /** Shown in place of the rows when `listed` is empty. */
  emptyText: string;
}

/** A row's height on one line; a row whose reason for failing wraps is measured as drawn. */
const ROW_HEIGHT = 30;
/** Up to this many rows are all in the page, so small files need no scrolling from a script. */
const RENDER_ALL_UP_TO = 200;
const CASE_COLUMNS: Column[] = [
  { name: "#", className: "number" },
  { name: "case" },
  { name: "kind" },
  { name: "shape" },
  { name: "max abs error", head: <Term word="Max abs error">max abs error</Term>, className: "number" },
  {
    name: "tolerance there",
    head: (
      <>
        <Term word="Tolerance">tolerance</Term> there
      </>
    ),
    className: "number",
  },
  {
    name: "worst error / tolerance",
    head: <Term word="Error / tolerance">worst error / tolerance</Term>,
    className: "number",
  },
  { name: "at", title: GLOSSARY.worstElement },
  { name: "time", className: "number" },
  { name: "result", head: <Term word="Verdict">result</Term>, className: "verdict-pin" },
];
const COLUMNS = CASE_COLUMNS.length;
/** The widths of the columns (conformance.css), in CASE_COLUMNS' order. */
const COLUMN_CLASSES = ["index", "case", "kind", "shape", "number", "number", "fraction", "element", "time", "result"];

/**
 * One row per case, filled in as the engine finishes it. Only the rows in view are in the page
 * (ten thousand rows would make every update slow); the table keeps its full size for assistive
 * technology through aria-rowcount and aria-rowindex.
 */
export function VerdictTable({ cases, rows, listed, emptyText }: VerdictTableProps) {
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: listed.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: listed.length <= RENDER_ALL_UP_TO ? listed.length : 15,
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const above = items.length > 0 ? items[0].start : 0;
  const below = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must be reachable with the keyboard.
    <section className="verdict-scroll" ref={scroller} tabIndex={0} aria-label="Verdicts, one row per case">
      <table className="verdict-table verdict-grid" data-testid="verdict-table" aria-rowcount={listed.length + 1}>
        <colgroup>
          {COLUMN_CLASSES.map((name, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed (two share a class)
            <col key={n} className={`col-${name}`} />
          ))}
        </colgroup>
        <thead>
          <ColumnHeads columns={CASE_COLUMNS} />
        </thead>
        <tbody>
          {above > 0 ? <Spacer height={above} /> : null}
          {items.map((item) => {
            const index = listed[item.index];
            return (
              <VerdictRow
                key={index}
                index={index}
                listIndex={item.index}
                measure={virtualizer.measureElement}
                position={item.index + 2}
                name={cases[index].name}
                kind={cases[index].kind}
                row={rows[index]}
              />
            );
          })}
          {below > 0 ? <Spacer height={below} /> : null}
          {listed.length === 0 ? (
            <tr aria-rowindex={2}>
              <td colSpan={COLUMNS} className="verdict-empty">
                {emptyText}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
    </section>
  );
}

interface VerdictRowProps {
  index: number;
  /** The row's place in the listed rows, for the virtualizer's measurement. */
  listIndex: number;
  measure(row: HTMLTableRowElement | null): void;
  /** aria-rowindex: the header is row 1. */
  position: number;
  name: string;
  kind: string;
  row: CaseRow | undefined;
}

/** A row re-renders only when its own verdict arrives. */
const VerdictRow = memo(function VerdictRow({ index, listIndex, measure, position, name, kind, row }: VerdictRowProps) {
  const verdict = row?.verdict;
  const state = rowState(row);
  return (
    <tr
      ref={measure}
      data-index={listIndex}
      className={state}
      data-testid="verdict-row"
      data-state={state}
      aria-rowindex={position}
    >
      <td className="number index">{index + 1}</td>
      <td className="case-name" title={name}>
        {name}
      </td>
      <td title={kind}>{kind}</td>
      <td title={verdict?.shape}>{verdict?.shape ?? ""}</td>
      <td className="number">{formatError(verdict?.maxAbsError)}</td>
      <td className="number">{formatError(verdict?.toleranceAtMaxError)}</td>
      <td className="number">{formatBoundFraction(verdict?.worst?.fraction)}</td>
      <td className="element" title={verdict?.worst?.element}>
        {verdict?.worst?.element ?? ""}
      </td>
      <td className="number">{formatMillis(row?.millis)}</td>
      <td className="result verdict-pin">
        {verdict ? (verdict.passed ? "pass" : "FAIL") : "…"}
        {verdict?.detail ? <span className="detail"> {verdict.detail}</span> : null}
      </td>
    </tr>
  );
});

/** Stands in for the rows out of view, so the scroll bar matches the whole table. */
function Spacer({ height }: { height: number }) {
  return (
    // biome-ignore lint/a11y/noAriaHiddenOnFocusable: a spacer row has no content and takes no focus; it only holds the scroll height.
    <tr className="verdict-spacer" aria-hidden="true" style={{ height }}>
      <td colSpan={COLUMNS} />
    </tr>
  );
}
