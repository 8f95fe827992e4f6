import { type KeyboardEvent, memo, useEffect, useId, useMemo, useRef, useState } from "react";
import { MAX_PANEL_CP_SIZE, promptLengthProblem } from "../../compute/contextParallel/cpPanelModel";
import { CP_STEPS, STEP_SHORT, STEP_TITLES, stepCaption } from "../../compute/contextParallel/cpSteps";
import { heldInputs, unreadInputs } from "../../io/laneUse";
import {
  type ContextParallelSettings,
  DEFAULT_CONTEXT_PARALLEL,
  type PlaygroundRow,
  type PlaygroundState,
} from "../../io/playgroundState";
import { useWidth } from "../charts/useWidth";
import { CpChecks } from "./CpChecks";
import { LogitShiftInset } from "./LogitShiftInset";
import { RankLanes } from "./RankLanes";
import { RankList } from "./RankList";
import { SequenceStrip } from "./SequenceStrip";
import { useCpModel } from "./useCpModel";
import { WhiteningTable } from "./WhiteningTable";
import "./contextParallel.css";
import { Term } from "../glossary/Term";
import { OptionSelect } from "../OptionSelect";

/** The cp_size menu's choices: 1 to the panel's largest. */
const CP_SIZES = Array.from({ length: MAX_PANEL_CP_SIZE }, (_, i) => i + 1);

export interface ContextParallelPanelProps {
  /** The selected row: one sample, as slime splits each sample on its own. */
  row: PlaygroundRow | undefined;
  rowIndex: number;
  settings: Pick<PlaygroundState, "estimator" | "gamma" | "lambd" | "klCoef" | "chunkSize">;
  /** The panel's own settings, kept in the playground's state (links, local storage); absent: the defaults. */
  cp?: ContextParallelSettings;
  onCp(next: ContextParallelSettings): void;
  /** The rows are the user's (drawn or imported), not a preset's: unread lanes are worth a note. */
  userRows?: boolean;
}

/**
 * How slime runs the playground's scan under Megatron context parallelism, on the selected row:
 * the zigzag split, the logit shift, the gather, the scan and the slice-back, step by step, with the
 * check against cp_size 1, the PPO reward placement and whitening per rank. Computed only while open.
 */
export const ContextParallelPanel = memo(function ContextParallelPanel({
  row,
  rowIndex,
  settings,
  cp = DEFAULT_CONTEXT_PARALLEL,
  onCp,
  userRows = false,
}: ContextParallelPanelProps) {
  return (
    <details
      className="panel cp-panel"
      data-testid="cp-panel"
      open={cp.open}
      onToggle={(event) => {
        const open = event.currentTarget.open;
        if (open !== cp.open) onCp({ ...cp, open });
      }}
    >
      <summary>
        <h2>Context parallelism</h2>
        <span className="muted small">
          how slime splits, gathers, scans and slices back row {rowIndex} over cp_size ranks
        </span>
      </summary>
      {cp.open ? <LaneNote row={row} estimator={settings.estimator} userRows={userRows} /> : null}
      {cp.open ? <PanelBody row={row} rowIndex={rowIndex} settings={settings} cp={cp} onCp={onCp} /> : null}
    </details>
  );
});

/** What of the row the panel does not read (its estimator's inputs only), so zeros are never shown unannounced. */
function LaneNote({
  row,
  estimator,
  userRows,
}: {
  row: PlaygroundRow | undefined;
  estimator: PlaygroundState["estimator"];
  userRows: boolean;
}) {
  const unread = useMemo(
    () => (row ? unreadInputs("contextParallel", estimator, heldInputs([row])) : null),
    [row, estimator],
  );
  return unread && (unread.onZeros || userRows) ? (
    <p className={unread.onZeros ? "notice cp-lane-notice" : "muted small cp-lane-notice"} data-testid="cp-lane-notice">
      {unread.text}
    </p>
  ) : null;
}

function PanelBody({
  row,
  rowIndex,
  settings,
  cp,
  onCp,
}: Omit<ContextParallelPanelProps, "cp"> & { cp: ContextParallelSettings }) {
  const { cpSize, promptLength } = cp;
  // What is typed may not be a prompt length yet: the last good one stays in the state and in use.
  const [promptText, setPromptText] = useState(String(promptLength));
  useEffect(() => {
    setPromptText((text) => (text.trim() === String(promptLength) ? text : String(promptLength)));
  }, [promptLength]);
  const stepIndex = Math.max(0, CP_STEPS.indexOf(cp.step));
  const ref = useRef<HTMLDivElement>(null);
  const stepButtons = useRef<(HTMLButtonElement | null)[]>([]);
  const width = useWidth(ref, 640);
  const ids = useId();
  const promptProblem = promptLengthProblem(promptText);
  // In a worker: a long row takes hundreds of ms in float32, the page stays responsive meanwhile.
  const { result, computing } = useCpModel(row, { ...settings, cpSize, promptLength, rowIndex });
  const step = CP_STEPS[stepIndex];
  const clampStep = (index: number) => Math.max(0, Math.min(CP_STEPS.length - 1, index));
  const go = (index: number) => onCp({ ...cp, step: CP_STEPS[clampStep(index)] });
  const onKeyDown = (event: KeyboardEvent) => {
    const keys: Record<string, number> = {
      ArrowLeft: stepIndex - 1,
      ArrowRight: stepIndex + 1,
      Home: 0,
      End: CP_STEPS.length - 1,
    };
    if (!(event.key in keys)) return;
    event.preventDefault();
    // Focus follows the step, so the keys keep working even where Back or Next turns disabled.
    const index = clampStep(keys[event.key]);
    go(index);
    stepButtons.current[index]?.focus();
  };
  const model = result?.ok ? result.model : null;
  return (
    <div className={`cp-body${computing ? " stale" : ""}`} ref={ref} aria-busy={computing} data-testid="cp-body">
      <div className="cp-controls">
        <label htmlFor={`${ids}-cp`}>
          cp_size
          <OptionSelect
            id={`${ids}-cp`}
            options={CP_SIZES}
            value={cpSize}
            onChoose={(cpSize) => onCp({ ...cp, cpSize })}
            testId="cp-size-select"
            title="Context-parallel ranks: the sample is cut into 2 × cp_size chunks"
          />
        </label>
        <Term word="Context parallelism" />
        <label htmlFor={`${ids}-prompt`}>
          prompt length
          <input
            id={`${ids}-prompt`}
            className={`num${promptProblem ? " invalid" : ""}`}
            inputMode="numeric"
            value={promptText}
            aria-invalid={promptProblem !== null}
            aria-describedby={promptProblem ? `${ids}-prompt-problem` : undefined}
            onChange={(event) => {
              setPromptText(event.target.value);
              if (promptLengthProblem(event.target.value) === null) {
                onCp({ ...cp, promptLength: Number(event.target.value.trim()) });
              }
            }}
            data-testid="cp-prompt-input"
            title="Prompt tokens before the row's response: the split cuts the whole sample, prompt included"
          />
        </label>
        {model ? (
          <span className="muted small num" data-testid="cp-sample">
            T = {model.layout.promptLength} + {model.layout.responseLength} = {model.layout.totalLength} tokens,{" "}
            {2 * cpSize} chunks of c = {model.layout.chunkLength}
          </span>
        ) : null}
      </div>
      {promptProblem ? (
        <p className="cp-field-problem" id={`${ids}-prompt-problem`} data-testid="cp-prompt-problem">
          {promptProblem}; still showing a prompt of {promptLength}.
        </p>
      ) : null}
      {result && !result.ok ? (
        <p className="cp-warning" data-testid="cp-message">
          {result.message}
        </p>
      ) : null}
      {!row ? <p className="muted">No row selected.</p> : null}
      {row && !result ? <p className="muted">Computing the layout and the scans…</p> : null}
      {model ? (
        <>
          <SequenceStrip layout={model.layout} width={width} step={step} />
          <fieldset className="cp-stepper" onKeyDown={onKeyDown} data-testid="cp-steps">
            <legend className="sr-only">Steps (← → on a step, Home, End)</legend>
            <button
              type="button"
              onClick={() => go(stepIndex - 1)}
              disabled={stepIndex === 0}
              data-testid="cp-step-prev"
            >
              ◂
            </button>
            <ol className="cp-step-list">
              {CP_STEPS.map((s, i) => (
                <li key={s}>
                  <button
                    type="button"
                    ref={(element) => {
                      stepButtons.current[i] = element;
                    }}
                    aria-current={i === stepIndex ? "step" : undefined}
                    className={i === stepIndex ? "current" : i < stepIndex ? "done" : ""}
                    onClick={() => go(i)}
                  >
                    {i + 1} {STEP_SHORT[s]}
                  </button>
                </li>
              ))}
            </ol>
            <button
              type="button"
              onClick={() => go(stepIndex + 1)}
              disabled={stepIndex === CP_STEPS.length - 1}
              aria-label="Next step"
              title="Next step (→)"
              data-testid="cp-step-next"
            >
              ▸
            </button>
          </fieldset>
          <p className="cp-caption" aria-live="polite" data-testid="cp-step" data-step={step}>
            <strong>
              Step {stepIndex + 1} of {CP_STEPS.length}: {STEP_TITLES[step]}.
            </strong>{" "}
            {stepCaption(step, model)}
          </p>
          {step === "split" ? <RankList model={model} /> : null}
          {step === "shift" ? <LogitShiftInset layout={model.layout} /> : null}
          {step !== "split" && step !== "shift" ? <RankLanes model={model} step={step} width={width} /> : null}
          <CpChecks model={model} />
          <WhiteningTable model={model} width={width} />
        </>
      ) : null}
    </div>
  );
}
