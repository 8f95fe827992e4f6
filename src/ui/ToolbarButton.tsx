import type { ButtonHTMLAttributes } from "react";

export interface ToolbarButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "title"> {
  /** The accessible name, where the face is a symbol (◂, −, ?): read out instead of it. */
  label?: string;
  /** The tooltip; with a shortcut, `title (shortcut)` (the label when no title is given). */
  title?: string;
  /** The key that does the same: `Shift+←`, `Space`. */
  shortcut?: string;
  testId?: string;
  /** `data-control`: the player's tour and its tests find the controls by it. */
  control?: string;
  /** A form's submit button (Run benchmark); a plain button otherwise. */
  submit?: boolean;
}

/**
 * A button of a view's toolbar (the player's transport, the bench's run and cancel, the run view's
 * exports, the playground's toolbar, undo and rows): never a form's submit by accident, its symbol
 * named, its shortcut in its tooltip.
 */
export function ToolbarButton({
  label,
  title,
  shortcut,
  testId,
  control,
  submit = false,
  children,
  ...button
}: ToolbarButtonProps) {
  const tip = shortcut ? `${title ?? label} (${shortcut})` : title;
  return (
    <button
      {...button}
      type={submit ? "submit" : "button"}
      aria-label={label}
      title={tip}
      data-testid={testId}
      data-control={control}
    >
      {children}
    </button>
  );
}
