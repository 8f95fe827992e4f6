import { useState } from "react";
import type { View } from "../urlState";

export interface TopNavProps {
  view: View;
  /** Where the active view puts its own actions (the playground's examples, import, export, share). */
  actionsRef(element: HTMLDivElement | null): void;
}

const VIEWS: { view: View; label: string; href: string }[] = [
  { view: "home", label: "Playground", href: "./" },
  { view: "player", label: "Player", href: "?view=player" },
  { view: "conformance", label: "Conformance", href: "?view=conformance" },
  { view: "bench", label: "Benchmark", href: "?view=bench" },
  { view: "run", label: "Your run", href: "?view=run" },
  { view: "glossary", label: "Glossary", href: "?view=glossary" },
];

/**
 * The slim bar on every view: the name, the views, and the active view's actions. On a phone the
 * views and actions do not fit beside the name, so they fold behind a "Menu" button (styles.css
 * shows the button and hides the folded part below 720 px); wider, the button is hidden and
 * everything is in the bar. The actions stay mounted either way: the active view draws into them.
 */
export function TopNav({ view, actionsRef }: TopNavProps) {
  const [open, setOpen] = useState(false);
  const current = VIEWS.find((item) => item.view === view)?.label ?? "";
  return (
    <header className={open ? "topnav open" : "topnav"}>
      <h1 className="brand">Scanlab</h1>
      <span className="topnav-current" aria-hidden="true">
        {current}
      </span>
      <button
        type="button"
        className="topnav-toggle"
        aria-expanded={open}
        aria-controls="topnav-menu"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{open ? "✕" : "☰"}</span> Menu
      </button>
      <div className="topnav-menu" id="topnav-menu">
        <nav aria-label="Views" className="views">
          {VIEWS.map((item) => (
            <a key={item.view} href={item.href} aria-current={item.view === view ? "page" : undefined}>
              {item.label}
            </a>
          ))}
        </nav>
        <div className="nav-actions" ref={actionsRef} />
      </div>
    </header>
  );
}
