import type { ReactNode } from "react";

export interface WithHelpProps {
  /** The id the wrapped control names in its aria-describedby. */
  id: string;
  help: string;
  children: ReactNode;
  className?: string;
  /** Print the help under the control, always (the settings column), instead of on hover and focus (a toolbar). */
  shown?: boolean;
}

/** Any control with a one-line explanation: printed under it, or, in a tight toolbar, shown on hover and keyboard focus. */
export function WithHelp({ id, help, children, className = "", shown = false }: WithHelpProps) {
  if (shown) {
    return (
      <div className={`with-help-shown ${className}`}>
        {children}
        <div id={id} className="field-hint">
          {help}
        </div>
      </div>
    );
  }
  return (
    <div className={`with-help ${className}`}>
      {children}
      <div role="tooltip" id={id} className="field-help">
        {help}
      </div>
    </div>
  );
}
