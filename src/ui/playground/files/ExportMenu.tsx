import { useRef, useState } from "react";
import { LIBRARY_LABELS } from "../../../compute/conventions/conventionDifferences";
import type { PlaygroundResult } from "../../../compute/playground/playgroundRun";
import type { StateCodec } from "../../../compute/playground/stateCodec";
import { conventionOf } from "../../../io/conventionProblem";
import type { PlaygroundRow, PlaygroundState } from "../../../io/playgroundState";
import type { PytestExport } from "../../../io/pytestSnippet";
import type { SlimeTolerancePrediction } from "../../../io/slimeTolerance";
import { Menu } from "../Menu";
import type { ChartRefs } from "../PlaygroundToolbar";
import { copyText, download } from "./download";

export interface ExportMenuProps {
  state: PlaygroundState;
  rows: PlaygroundRow[];
  result: PlaygroundResult | null;
  codec: StateCodec;
  charts: ChartRefs;
  onError(message: string | null): void;
  onStatus(message: string): void;
  onCopyLink(): void;
}

/** Case file, CSV, PNGs and a pytest snippet of what is on screen. */
/** The pictures the menu saves, each as scanlab_<chart>.png. */
const PICTURES: [keyof ChartRefs, string][] = [
  ["returns", "Returns chart"],
  ["error", "Error chart"],
  ["heatmap", "Heatmap"],
];

export function ExportMenu({ state, result, codec, charts, onError, onStatus, onCopyLink }: ExportMenuProps) {
  const run = (what: string, action: () => Promise<void>, close: () => void) => {
    close();
    action()
      .then(() => onError(null))
      .catch((reason: unknown) => onError(prefixed(what, reason)));
  };
  const pytest = usePytestExport(codec);
  const png = (handle: { toPng(): Promise<Blob> } | null, fileName: string) => async () => {
    if (!handle) throw new Error("nothing is drawn yet");
    download(await handle.toPng(), fileName);
    onStatus(`Saved ${fileName}`);
  };
  return (
    <Menu label="Export" title="Save what is on screen" testId="export-menu" onOpen={() => pytest.prepare(state)}>
      {(close) => (
        <ul className="export-items">
          <li>
            <button
              type="button"
              data-testid="export-case"
              onClick={() =>
                run(
                  "Case export",
                  async () => {
                    const answer = await codec.caseFile(state);
                    if (!answer.ok) throw new Error(answer.message);
                    download(new Blob([answer.text], { type: "application/json" }), answer.fileName);
                    onStatus(`Saved ${answer.fileName}: check it with npx scanlab check ${answer.fileName}`);
                  },
                  close,
                )
              }
            >
              Case file (.json)
            </button>
            <span className="caption">the golden schema: npx scanlab check verifies it</span>
          </li>
          {state.estimator !== "discounted" ? (
            <li>
              <button
                type="button"
                data-testid="export-convention-case"
                onClick={() =>
                  run(
                    "Convention case export",
                    async () => {
                      const answer = await codec.conventionCase(state);
                      if (!answer.ok) throw new Error(answer.message);
                      download(new Blob([answer.text], { type: "application/json" }), answer.fileName);
                      onStatus(`Saved ${answer.fileName}: check it with npx scanlab check ${answer.fileName}`);
                    },
                    close,
                  )
                }
              >
                Convention case, {LIBRARY_LABELS[conventionOf(state).library]} (.json)
              </button>
              <span className="caption">these inputs through the library shown: npx scanlab check verifies it</span>
            </li>
          ) : null}
          <li>
            <button
              type="button"
              data-testid="export-csv"
              disabled={!result}
              onClick={() =>
                run(
                  "CSV export",
                  async () => {
                    if (!result) throw new Error("no result yet");
                    const { cols, reference, chunked, serial32 } = result;
                    const answer = await codec.csv(result.input, { cols, reference, chunked, serial32 });
                    if (!answer.ok) throw new Error(answer.message);
                    download(new Blob([answer.text], { type: "text/csv" }), answer.fileName);
                    onStatus(`Saved ${answer.fileName}`);
                  },
                  close,
                )
              }
            >
              CSV of inputs and results
            </button>
            <span className="caption">one line per token: inputs, serial float64, chunked, errors</span>
          </li>
          <li>
            <button
              type="button"
              data-testid="export-pytest"
              onClick={() =>
                run(
                  "Copy as pytest",
                  async () => {
                    // Seconds for a large batch: say it is under way.
                    onStatus("Writing the pytest file…");
                    const { text } = await pytest.get(state);
                    if (await copyText(text)) onStatus("pytest copied to the clipboard");
                    else {
                      download(new Blob([text], { type: "text/x-python" }), "test_scanlab_playground.py");
                      onStatus("The clipboard is not available: saved test_scanlab_playground.py");
                    }
                  },
                  close,
                )
              }
            >
              Copy as pytest
            </button>
            <span className="caption">
              rebuilds the tensors; checks slime's scan against its serial loop and against Scanlab's float64 reference,
              each element within its float32 bound
            </span>
            <PytestNotice plan={pytest.plan?.state === state ? pytest.plan : null} />
          </li>
          {PICTURES.map(([chart, label]) => (
            <li key={chart}>
              <button
                type="button"
                data-testid={`export-png-${chart}`}
                onClick={() => run("PNG export", png(charts[chart].current, `scanlab_${chart}.png`), close)}
              >
                {label} (.png)
              </button>
            </li>
          ))}
          <li>
            <button
              type="button"
              onClick={() => {
                close();
                onCopyLink();
              }}
            >
              Copy link
            </button>
            <span className="caption">reopens this exact view</span>
          </li>
        </ul>
      )}
    </Menu>
  );
}

/**
 * The message of a failed export, led by what was exported, once: io's errors already start with
 * their source ("Case export: cannot hold non-finite inputs …"), which gave "Case export: Case export: …".
 */
export function prefixed(what: string, reason: unknown): string {
  const message = reason instanceof Error ? reason.message : String(reason);
  return message.startsWith(`${what}: `) ? message : `${what}: ${message}`;
}

interface PytestPlan {
  state: PlaygroundState;
  prediction: SlimeTolerancePrediction | null;
  error: string | null;
}

/**
 * The pytest export of the state on screen. When the menu opens, only what slime's own assertion
 * will do is computed (the notice says it before anything is copied); the file itself, seconds of
 * work for a 16 × 8192 batch, is written on the click.
 */
function usePytestExport(codec: StateCodec) {
  const [plan, setPlan] = useState<PytestPlan | null>(null);
  const asked = useRef<PlaygroundState | null>(null);
  const prepare = (state: PlaygroundState) => {
    if (asked.current === state) return;
    asked.current = state;
    setPlan({ state, prediction: null, error: null });
    const settle = (next: PytestPlan) => setPlan((now) => (now?.state === state ? next : now));
    codec.pytestPrediction(state).then(
      (prediction) => settle({ state, prediction, error: null }),
      (reason: unknown) => {
        // A failed check is not kept: the next open asks again.
        if (asked.current === state) asked.current = null;
        settle({ state, prediction: null, error: reason instanceof Error ? reason.message : String(reason) });
      },
    );
  };
  return { plan, prepare, get: (state: PlaygroundState): Promise<PytestExport> => codec.pytest(state) };
}

/** What Scanlab predicts for slime's own assertion on these inputs, in words; text only. */
function PytestNotice({ plan }: { plan: PytestPlan | null }) {
  if (!plan) return null;
  if (plan.error) {
    return (
      <span className="caption" data-testid="pytest-notice" data-verdict="error">
        The check could not be prepared: {plan.error}
      </span>
    );
  }
  if (!plan.prediction) {
    return (
      <span className="caption" data-testid="pytest-notice" data-verdict="pending">
        Checking slime's own tolerance on these inputs…
      </span>
    );
  }
  const { prediction } = plan;
  if (prediction.verdict === "passes" || prediction.verdict === "raises") {
    return (
      <span className="caption" data-testid="pytest-notice" data-verdict={prediction.verdict}>
        {prediction.summary}
      </span>
    );
  }
  return (
    <span className="notice pytest-notice" role="note" data-testid="pytest-notice" data-verdict={prediction.verdict}>
      {prediction.summary} The snippet marks that assertion xfail (not strict); Scanlab's assertion must still pass.
    </span>
  );
}
