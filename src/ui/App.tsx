import { useState } from "react";
import { BenchView } from "./bench/BenchView";
import { ConformanceView } from "./conformance/ConformanceView";
import { TopNav } from "./nav/TopNav";
import { PlayerView } from "./player/PlayerView";
import { linkedSource } from "./player/playerLink";
import { PlaygroundView } from "./playground/PlaygroundView";
import { parseUrlState } from "./urlState";

export function App() {
  // Read once: the views keep the address in sync themselves (history.replaceState).
  const [{ state, problems }] = useState(() => parseUrlState(window.location.search));
  const [debug] = useState(() => new URLSearchParams(window.location.search).has("debug"));
  const [actions, setActions] = useState<HTMLDivElement | null>(null);
  const [linked] = useState(() => linkedSource(window.location.search, window.location.hash));
  const conformance = state.view === "conformance";
  const player = state.view === "player";
  const bench = state.view === "bench";
  const playerNotice = [linked.error?.message, ...problems].filter(Boolean).join(" ");
  return (
    <div className={conformance || bench ? "shell" : "shell shell-wide"}>
      <TopNav view={state.view} actionsRef={setActions} />
      {conformance ? (
        <main className="app">
          <ConformanceView initial={state} urlProblems={problems} debug={debug} />
        </main>
      ) : bench ? (
        <main className="app">
          <BenchView urlProblems={problems} />
        </main>
      ) : player ? (
        <main className="player-page">
          <PlayerView initial={linked.source} notice={playerNotice || undefined} backend={state.backend} />
        </main>
      ) : (
        <PlaygroundView toolbarSlot={actions} urlProblems={problems} />
      )}
    </div>
  );
}
