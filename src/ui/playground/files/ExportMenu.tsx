import { type ReactNode, useRef, useState } from "react";
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
  /** A result is on screen (the CSV needs one). */
  hasResult: boolean;
  /** The result on screen when the CSV is asked for (stable: a new result does not render the menu). */
  shownResult(): PlaygroundResult | null;
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

export function ExportMenu({
  state,
  hasResult,
  shownResult,
  codec,
  charts,
  onError,
  onStatus,
  onCopyLink,
}: ExportMenuProps) {
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
  /** A case file from the codec worker, saved, with the command that checks it. */
  const caseFile = (answer: Awaited<ReturnType<StateCodec["caseFile"]>>) => {
    if (!answer.ok) throw new Error(answer.message);
    download(new Blob([answer.text], { type: "application/json" }), answer.fileName);
    onStatus(`Saved ${answer.fileName}: check it with npx scanlab check ${answer.fileName}`);
  };
  return (
    <Menu label="Export" title="Save what is on screen" testId="export-menu" onOpen={() => pytest.prepare(state)}>
      {(close) => {
        const item = (what: string, action: () => Promise<void>) => () => run(what, action, close);
        return (
          <ul className="export-items">
            <ExportItem
              testId="export-case"
              onClick={item("Case export", async () => caseFile(await codec.caseFile(state)))}
              caption="the golden schema: npx scanlab check verifies it"
            >
              Case file (.json)
            </ExportItem>
            {state.estimator !== "discounted" ? (
              <ExportItem
                testId="export-convention-case"
                onClick={item("Convention case export", async () => caseFile(await codec.conventionCase(state)))}
                caption="these inputs through the library shown: npx scanlab check verifies it"
              >
                Convention case, {LIBRARY_LABELS[conventionOf(state).library]} (.json)
              </ExportItem>
            ) : null}
            <ExportItem
              testId="export-csv"
              disabled={!hasResult}
              onClick={item("CSV export", async () => {
                const result = shownResult();
                if (!result) throw new Error("no result yet");
                const { cols, reference, chunked, serial32 } = result;
                const answer = await codec.csv(result.input, { cols, reference, chunked, serial32 });
                if (!answer.ok) throw new Error(answer.message);
                download(new Blob([answer.text], { type: "text/csv" }), answer.fileName);
                onStatus(`Saved ${answer.fileName}`);
              })}
              caption="one line per token: inputs, serial float64, chunked, errors"
            >
              CSV of inputs and results
            </ExportItem>
            <ExportItem
              testId="export-pytest"
              onClick={item("Copy as pytest", async () => {
                // Seconds for a large batch: say it is under way.
                onStatus("Writing the pytest file…");
                const { text } = await pytest.get(state);
                if (await copyText(text)) onStatus("pytest copied to the clipboard");
                else {
                  download(new Blob([text], { type: "text/x-python" }), "test_scanlab_playground.py");
                  onStatus("The clipboard is not available: saved test_scanlab_playground.py");
                }
              })}
              caption="rebuilds the tensors; checks slime's scan against its serial loop and against Scanlab's float64 reference, each element within its float32 bound"
              after={<PytestNotice plan={pytest.plan?.state === state ? pytest.plan : null} />}
            >
              Copy as pytest
            </ExportItem>
            {PICTURES.map(([chart, label]) => (
              <ExportItem
                key={chart}
                testId={`export-png-${chart}`}
                onClick={item("PNG export", png(charts[chart].current, `scanlab_${chart}.png`))}
              >
                {label} (.png)
              </ExportItem>
            ))}
            <ExportItem
              onClick={() => {
                close();
                onCopyLink();
              }}
              caption="reopens this exact view"
            >
              Copy link
            </ExportItem>
          </ul>
        );
      }}
    </Menu>
  );
}

/** One line of the menu: its button, what it saves in a caption, and anything shown after. */
function ExportItem(props: {
  testId?: string;
  disabled?: boolean;
  onClick(): void;
  caption?: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <li>
      <button type="button" data-testid={props.testId} disabled={props.disabled} onClick={props.onClick}>
        {props.children}
      </button>
      {props.caption ? <span className="caption">{props.caption}</span> : null}
      {props.after}
    </li>
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
