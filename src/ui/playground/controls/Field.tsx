import type { ReactNode } from "react";
import { Term } from "../../glossary/Term";

export interface FieldProps {
  /** The control's id; the control itself must carry `aria-describedby={helpId(id)}`. */
  id: string;
  label: string;
  /** The value, shown inline beside the label (monospace). */
  value?: ReactNode;
  /** The glossary word the control sets: a "?" after the label opens its definition. */
  term?: string;
  /** One line on what the control does, shown under it; without it the term's definition describes the control. */
  help?: string;
  /** Why the typed value was refused; the field turns red. */
  invalid?: string | null;
  children: ReactNode;
}

export const helpId = (id: string) => `${id}-help`;

/**
 * A labelled control with its value inline, its glossary word's definition behind a "?" beside
 * the label, and its own line of help under it, visible (never screen-reader text alone).
 */
export function Field({ id, label, value, term, help, invalid, children }: FieldProps) {
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <div className="field-head">
        <span className="field-label">
          <label htmlFor={id}>{label}</label>
          {term ? <Term word={term} tipId={help ? undefined : helpId(id)} /> : null}
        </span>
        {value !== undefined ? <span className="field-value num">{value}</span> : null}
      </div>
      <div className="field-control">{children}</div>
      {help ? (
        <div id={helpId(id)} className="field-hint">
          {help}
        </div>
      ) : null}
      {invalid ? <div className="field-error">{invalid}</div> : null}
    </div>
  );
}
