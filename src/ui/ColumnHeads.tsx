import type { ReactNode } from "react";

export interface Column {
  /** The heading in words; also its key. */
  name: string;
  /** What the heading shows, where it is more than its name (a glossary word). */
  head?: ReactNode;
  /** The tooltip: what the column's figure is. */
  title?: string;
  className?: string;
}

/** A table's row of column headings (row 1 of aria-rowcount), one per column, in order. */
export function ColumnHeads({ columns }: { columns: readonly Column[] }) {
  return (
    <tr aria-rowindex={1}>
      {columns.map(({ name, head, title, className }) => (
        <th key={name} scope="col" title={title} className={className}>
          {head ?? name}
        </th>
      ))}
    </tr>
  );
}
