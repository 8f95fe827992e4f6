import { type ReactNode, useEffect, useId, useRef, useState } from "react";

export interface MenuProps {
  label: string;
  title?: string;
  testId?: string;
  /** The panel's content; `close` hides it (after an action). */
  children(close: () => void): ReactNode;
  align?: "left" | "right";
  /** Called when the panel opens: a panel can prepare what it shows only then (the pytest export's check). */
  onOpen?(): void;
}

/** A button that opens a panel under it; Escape or a click elsewhere closes it, focus returns to the button. */
export function Menu({ label, title, testId, children, align = "left", onOpen }: MenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  return (
    <div className="menu" ref={box}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        title={title}
        data-testid={testId}
        onClick={() => {
          if (!open) onOpen?.();
          setOpen(!open);
        }}
      >
        {label} ▾
      </button>
      <div id={id} className={`menu-panel ${align}`} hidden={!open}>
        {children(() => setOpen(false))}
      </div>
    </div>
  );
}
