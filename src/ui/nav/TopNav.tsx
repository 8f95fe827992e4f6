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
];

/** The slim bar on every view: the name, the views, and the active view's actions. */
export function TopNav({ view, actionsRef }: TopNavProps) {
  return (
    <header className="topnav">
      <h1 className="brand">Scanlab</h1>
      <nav aria-label="Views" className="views">
        {VIEWS.map((item) => (
          <a key={item.view} href={item.href} aria-current={item.view === view ? "page" : undefined}>
            {item.label}
          </a>
        ))}
      </nav>
      <div className="nav-actions" ref={actionsRef} />
    </header>
  );
}
