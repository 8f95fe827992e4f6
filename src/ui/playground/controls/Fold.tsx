import { type ReactNode, useState } from "react";

const KEY = "scanlab.fold.";

function remembered(id: string): boolean {
  try {
    return window.localStorage.getItem(KEY + id) === "open";
  } catch {
    return false;
  }
}

function remember(id: string, open: boolean): void {
  try {
    if (open) window.localStorage.setItem(KEY + id, "open");
    else window.localStorage.removeItem(KEY + id);
  } catch {
    // Storage refused (private mode, full): the fold still works, it is only not remembered.
  }
}

export interface FoldProps {
  /** Names the fold in storage and in `data-fold`, for scripts. */
  id: string;
  summary: ReactNode;
  children: ReactNode;
  /** Open whatever was remembered: what it holds is in force and must be seen (a generator's rows, say). */
  forceOpen?: boolean;
}

/**
 * Settings a first visit does not need, folded under one line (a native `<details>`, so keyboard
 * and screen readers know it); closed until opened, then remembered open in this browser.
 */
export function Fold({ id, summary, children, forceOpen = false }: FoldProps) {
  const [open, setOpen] = useState(() => remembered(id));
  return (
    <details
      className="fold"
      data-fold={id}
      open={open || forceOpen}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        setOpen(now);
        remember(id, now);
      }}
    >
      <summary className="fold-summary">{summary}</summary>
      <div className="fold-body">{children}</div>
    </details>
  );
}
