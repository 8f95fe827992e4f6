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

export function App() {
  // Read once: the views keep the address in sync themselves (history.replaceState).
  const [{ state, problems }] = useState(() => parseUrlState(window.location.search));
  const [debug] = useState(() => new URLSearchParams(window.location.search).has("debug"));
  const [actions, setActions] = useState<HTMLDivElement | null>(null);
  const view = state.view;
  const pages: Partial<Record<typeof view, [what: string, page: ReactNode]>> = {
    glossary: ["glossary", <GlossaryView key="glossary" />],
    run: ["run view", <RunView key="run" urlProblems={problems} />],
    conformance: [
      "conformance view",
      <ConformanceView key="conformance" initial={state} urlProblems={problems} debug={debug} />,
    ],
    bench: ["benchmark", <BenchView key="bench" urlProblems={problems} />],
    player: ["player", <LinkedPlayer key="player" problems={problems} backend={state.backend} />],
  };
  const page = pages[view];
  const narrow = view === "conformance" || view === "bench" || view === "glossary";
  return (
    <div className={narrow ? "shell" : "shell shell-wide"}>
      <TopNav view={view} actionsRef={setActions} />
      {page ? (
        <main className={view === "player" ? "player-page" : "app"}>
          <Suspense fallback={<Loading what={page[0]} />}>{page[1]}</Suspense>
        </main>
      ) : (
        <Suspense fallback={<Loading what="playground" />}>
          <PlaygroundView toolbarSlot={actions} urlProblems={problems} />
        </Suspense>
      )}
    </div>
  );
}
