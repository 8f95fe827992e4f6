import type { ReactNode } from "react";

export interface FieldProps {
  /** The control's id; the control itself must carry `aria-describedby={helpId(id)}`. */
  id: string;
  label: string;
  /** The value, shown inline beside the label (monospace). */
  value?: ReactNode;
  /** One line on what the control does; shown on hover and on focus. */
  help: string;
  /** Why the typed value was refused; the field turns red. */
  invalid?: string | null;
  children: ReactNode;
}

export const helpId = (id: string) => `${id}-help`;

/** A labelled control with its value inline and a one-line explanation on hover and focus. */
export function Field({ id, label, value, help, invalid, children }: FieldProps) {
  return (
    <div className={`field${invalid ? " invalid" : ""}`}>
      <div className="field-head">
        <label htmlFor={id}>{label}</label>
        {value !== undefined ? <span className="field-value num">{value}</span> : null}
      </div>
      <div className="field-control">{children}</div>
      <div role="tooltip" id={helpId(id)} className="field-help">
        {help}
      </div>
      {invalid ? <div className="field-error">{invalid}</div> : null}
    </div>
  );
}
