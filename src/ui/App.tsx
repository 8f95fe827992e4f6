import { useState } from "react";
import { ConformanceView } from "./conformance/ConformanceView";
import { parseUrlState } from "./urlState";

export function App() {
  // Read once: the views keep the address in sync themselves (history.replaceState).
  const [{ state, problems }] = useState(() => parseUrlState(window.location.search));
  const [debug] = useState(() => new URLSearchParams(window.location.search).has("debug"));
  const conformance = state.view === "conformance";
  return (
    <main className="app">
      <header>
        <h1>Scanlab</h1>
        <p className="tagline">
          An interactive lab for the chunked discounted-return scan of RL post-training: slime's{" "}
          <code>chunked_discounted_returns</code>, GAE and REINFORCE++, checked against the float64 serial reference.
        </p>
        <nav className="views">
          {conformance ? <a href="./">Home</a> : <a href="?view=conformance">Conformance: check a case file</a>}
        </nav>
      </header>
      {conformance ? (
        <ConformanceView initial={state} urlProblems={problems} debug={debug} />
      ) : problems.length > 0 ? (
        <p className="notice url-notice" role="status" data-testid="url-notice">
          {problems.join(" ")}
        </p>
      ) : null}
    </main>
  );
}
