import { lazy, Suspense, useState } from "react";
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
        <main className="app">
          <Suspense fallback={<Loading what="glossary" />}>
            <GlossaryView />
          </Suspense>
        </main>
      ) : run ? (
        <main className="app">
          <Suspense fallback={<Loading what="run view" />}>
            <RunView urlProblems={problems} />
          </Suspense>
        </main>
      ) : conformance ? (
        <main className="app">
          <Suspense fallback={<Loading what="conformance view" />}>
            <ConformanceView initial={state} urlProblems={problems} debug={debug} />
          </Suspense>
        </main>
      ) : bench ? (
        <main className="app">
          <Suspense fallback={<Loading what="benchmark" />}>
            <BenchView urlProblems={problems} />
          </Suspense>
        </main>
      ) : player ? (
        <main className="player-page">
          <Suspense fallback={<Loading what="player" />}>
            <LinkedPlayer problems={problems} backend={state.backend} />
          </Suspense>
        </main>
      ) : (
        <Suspense fallback={<Loading what="playground" />}>
          <PlaygroundView toolbarSlot={actions} urlProblems={problems} />
        </Suspense>
      )}
    </div>
  );
}
