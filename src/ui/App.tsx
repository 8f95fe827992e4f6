import { lazy, type ReactNode, Suspense, useState } from "react";
import { TopNav } from "./nav/TopNav";
import { parseUrlState } from "./urlState";

// One chunk per view, loaded when the view is opened: the first screen loads React, the shell and
// its own view only (recharts, KaTeX, the public cases and the other views wait for theirs).
const PlaygroundView = lazy(() => import("./playground/PlaygroundView").then((m) => ({ default: m.PlaygroundView })));
const LinkedPlayer = lazy(() => import("./player/LinkedPlayer").then((m) => ({ default: m.LinkedPlayer })));
const ConformanceView = lazy(() =>
  import("./conformance/ConformanceView").then((m) => ({ default: m.ConformanceView })),
);
const BenchView = lazy(() => import("./bench/BenchView").then((m) => ({ default: m.BenchView })));
const RunView = lazy(() => import("./run/RunView").then((m) => ({ default: m.RunView })));
const GlossaryView = lazy(() => import("./glossary/GlossaryView").then((m) => ({ default: m.GlossaryView })));

function Loading({ what }: { what: string }) {
  return (
    <p className="muted view-loading" role="status">
      Loading the {what}…
    </p>
  );
}

/** A view's page, its code loaded on demand: "Loading the …" until it arrives. */
function ViewPage({ what, className = "app", children }: { what: string; className?: string; children: ReactNode }) {
  return (
    <main className={className}>
      <Suspense fallback={<Loading what={what} />}>{children}</Suspense>
    </main>
  );
}

export function App() {
  // Read once: the views keep the address in sync themselves (history.replaceState).
  const [{ state, problems }] = useState(() => parseUrlState(window.location.search));
  const [debug] = useState(() => new URLSearchParams(window.location.search).has("debug"));
  const [actions, setActions] = useState<HTMLDivElement | null>(null);
  const conformance = state.view === "conformance";
  const player = state.view === "player";
  const bench = state.view === "bench";
  const run = state.view === "run";
  const glossary = state.view === "glossary";
  return (
    <div className={conformance || bench || glossary ? "shell" : "shell shell-wide"}>
      <TopNav view={state.view} actionsRef={setActions} />
      {glossary ? (
        <ViewPage what="glossary">
          <GlossaryView />
        </ViewPage>
      ) : run ? (
        <ViewPage what="run view">
          <RunView urlProblems={problems} />
        </ViewPage>
      ) : conformance ? (
        <ViewPage what="conformance view">
          <ConformanceView initial={state} urlProblems={problems} debug={debug} />
        </ViewPage>
      ) : bench ? (
        <ViewPage what="benchmark">
          <BenchView urlProblems={problems} />
        </ViewPage>
      ) : player ? (
        <ViewPage what="player" className="player-page">
          <LinkedPlayer problems={problems} backend={state.backend} />
        </ViewPage>
      ) : (
        <Suspense fallback={<Loading what="playground" />}>
          <PlaygroundView toolbarSlot={actions} urlProblems={problems} />
        </Suspense>
      )}
    </div>
  );
}
