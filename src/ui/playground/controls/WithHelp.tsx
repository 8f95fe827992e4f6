import type { ReactNode } from "react";

export interface WithHelpProps {
  /** The id the wrapped control names in its aria-describedby. */
  id: string;
  help: string;
  children: ReactNode;
  className?: string;
}

/** Any control with a one-line explanation shown on hover and on keyboard focus (see Field). */
export function WithHelp({ id, help, children, className = "" }: WithHelpProps) {
  return (
    <div className={`with-help ${className}`}>
      {children}
      <div role="tooltip" id={id} className="field-help">
        {help}
      </div>
    </div>
  );
}
