import { memo, useCallback, useRef } from "react";
import { paddingStats } from "../../../io/playgroundProblem";
import {
  ERROR_METRICS,
  ERROR_SCOPES,
  type ErrorMetric,
  type ErrorScope,
  ESTIMATORS,
  type Estimator,
  type PlaygroundPrecision,
  type PlaygroundRow,
  type PlaygroundState,
  PRECISIONS,
} from "../../../io/playgroundState";
import { BACKEND_REQUESTS, type BackendReport } from "../../../names/backends";
import type { Strategy } from "../../../names/strategies";
import { STRATEGY_INFO, strategyMenu } from "../../strategyWords";
import { ConventionControls } from "../conventions/ConventionControls";
import { ChunkSizeControl } from "./ChunkSizeControl";
import { DataControls } from "./DataControls";
import { Field, helpId } from "./Field";
import { Fold } from "./Fold";
import { GammaControl } from "./GammaControl";
import { NumberEntry } from "./NumberEntry";
import { Segmented } from "./Segmented";
import { SelectField } from "./SelectField";
import { parseForState } from "./validateEdit";

export const ESTIMATOR_LABELS: Record<Estimator, string> = {
  discounted: "Discounted returns",
  gae: "GAE",
  reinforce_pp: "REINFORCE++",
};

export const PRECISION_LABELS: Record<PlaygroundPrecision, string> = {
  "float32-engine": "float32 engine (tfjs worker)",
  "slime-exact": "slime-exact (core float32, torch CPU powers)",
  float64: "float64 chunked (core)",
};

const METRIC_LABELS: Record<ErrorMetric, string> = { abs: "abs", rel: "rel", ulp: "ulp" };
const SCOPE_LABELS: Record<ErrorScope, string> = { batch: "batch", row: "row", chunk: "chunk" };
/** The scopes the heatmap draws (a per-chunk domain is not offered by it yet). */
const HEATMAP_SCOPES = ERROR_SCOPES.filter((scope) => scope !== "chunk");

export interface ControlsPanelProps {
  state: PlaygroundState;
  rows: PlaygroundRow[];
  report: BackendReport | null;
  edit(change: (state: PlaygroundState) => PlaygroundState, group?: string): void;
  setView(view: Partial<Pick<PlaygroundState, "errorMetric" | "errorScope" | "output">>): void;
  fieldErrors: Record<string, string>;
  onFieldError(id: string, reason: string | null): void;
}

/**
 * The engine fold's line says what is in force while it is closed, so folding it hides the menus,
 * not which precision, backend and strategy computed the numbers on the page.
 */
function engineSummary(precision: PlaygroundPrecision, report: BackendReport | null, strategy: Strategy): string {
  if (precision !== "float32-engine") return `Engine: ${PRECISION_LABELS[precision]}`;
  return `Engine: float32 on ${report ? report.backend : "(starting)"}, ${STRATEGY_INFO[strategy].label}`;
}

type Edit = ControlsPanelProps["edit"];

/** Sets one field; a slider's ticks while it is dragged are one edit (group): each is computed and drawn, one undo takes the drag back. */
function setterOf(edit: Edit) {
  return <K extends keyof PlaygroundState>(key: K, value: PlaygroundState[K], group?: string) =>
    edit((s) => ({ ...s, [key]: value }), group);
}

/** An entry of one field, checked as the whole state it would make (the state when it is made). */
function parserOf(current: () => PlaygroundState) {
  return (label: string, key: keyof PlaygroundState) => (text: string) =>
    parseForState(label, text, (value) => ({ ...current(), [key]: value }));
}

/**
 * The left column: data, estimator, algorithm and display, in that order. The data, algorithm and
 * display sections are memoised on the fields they show, so that a γ edit renders the estimator's
 * section alone (every control of the column was rendered again in the edit's frame).
 */
export const ControlsPanel = memo(function ControlsPanel({
  state,
  rows,
  report,
  edit,
  setView,
  fieldErrors,
  onFieldError,
}: ControlsPanelProps) {
  const latest = useRef(state);
  latest.current = state;
  const current = useCallback(() => latest.current, []);
  const set = setterOf(edit);
  const parseKey = parserOf(current);
  const maxLength = paddingStats(rows).maxLength;
  const discount = state.estimator === "gae" ? state.gamma * state.lambd : state.gamma;

  return (
    <div className="controls">
      <section className="panel" aria-labelledby="pg-data-title">
        <h2 id="pg-data-title">Data</h2>
        <DataControls
          data={state.data}
          current={current}
          rows={rows}
          edit={edit}
          fieldErrors={fieldErrors}
          onFieldError={onFieldError}
        />
      </section>

      <section className="panel" aria-labelledby="pg-estimator-title">
        <h2 id="pg-estimator-title">Estimator</h2>
        <SelectField
          id="pg-estimator"
          label="Estimator"
          term="Estimator"
          options={ESTIMATORS}
          selected={state.estimator}
          optionLabel={(e) => ESTIMATOR_LABELS[e]}
          onSelect={(e) => set("estimator", e)}
          testId="estimator-select"
        />
        <GammaControl
          gamma={state.gamma}
          discount={discount}
          discountLabel={state.estimator === "gae" ? "(γλ)" : "γ"}
          chunkSize={state.chunkSize}
          parse={parseKey("γ", "gamma")}
          onChange={(gamma) => set("gamma", gamma)}
          onSlide={(gamma) => set("gamma", gamma, "γ slider")}
          onInvalid={(reason) => onFieldError("gamma", reason)}
          invalid={fieldErrors.gamma ?? null}
        />
        {state.estimator === "gae" ? (
          <Field
            id="pg-lambda"
            label="λ (GAE)"
            term="Discount"
            value={`γλ = ${Number((state.gamma * state.lambd).toPrecision(6))}`}
            help="GAE's λ: how far advantages look ahead (0: one-step TD error, 1: the full return minus the value). The scan runs with discount γλ."
            invalid={fieldErrors.lambd}
          >
            <div className="gamma-row">
              <input
                type="range"
                min={0}
                max={1}
                step={0.01}
                value={state.lambd}
                aria-label="λ"
                aria-describedby={helpId("pg-lambda")}
                onChange={(event) => set("lambd", Number(event.currentTarget.value), "λ slider")}
              />
              <NumberEntry
                id="pg-lambda"
                value={state.lambd}
                parse={parseKey("λ", "lambd")}
                onCommit={(v) => set("lambd", v)}
                onInvalid={(reason) => onFieldError("lambd", reason)}
                describedBy={helpId("pg-lambda")}
              />
            </div>
          </Field>
        ) : null}
        {state.estimator !== "discounted" ? (
          <Field
            id="pg-kl"
            label="KL coefficient β"
            help={
              state.estimator === "reinforce_pp"
                ? "REINFORCE++ token reward is −β·KL on unmasked tokens; the outcome reward is added at each row's last unmasked token."
                : "The library conventions' GAE token rewards: −β·KL plus the outcome reward (slime's own GAE scan above reads the rewards lane instead)."
            }
            invalid={fieldErrors.klCoef}
          >
            <NumberEntry
              id="pg-kl"
              value={state.klCoef}
              parse={parseKey("KL coefficient", "klCoef")}
              onCommit={(v) => set("klCoef", v)}
              onInvalid={(reason) => onFieldError("klCoef", reason)}
              describedBy={helpId("pg-kl")}
              testId="kl-input"
            />
          </Field>
        ) : null}
      </section>

      {state.estimator !== "discounted" ? (
        <section className="panel" aria-labelledby="pg-convention-title">
          <h2 id="pg-convention-title">Library convention</h2>
          <ConventionControls state={state} edit={edit} fieldErrors={fieldErrors} onFieldError={onFieldError} />
        </section>
      ) : null}

      <AlgorithmSection
        chunkSize={state.chunkSize}
        maxLength={maxLength}
        precision={state.precision}
        backend={state.backend}
        strategy={state.strategy}
        report={report}
        edit={edit}
        current={current}
        onFieldError={onFieldError}
        invalid={fieldErrors.chunkSize ?? null}
      />
      <DisplaySection
        estimator={state.estimator}
        output={state.output}
        errorMetric={state.errorMetric}
        errorScope={state.errorScope}
        setView={setView}
      />
    </div>
  );
});

interface AlgorithmSectionProps extends Pick<PlaygroundState, "chunkSize" | "precision" | "backend" | "strategy"> {
  maxLength: number;
  report: BackendReport | null;
  edit: Edit;
  current(): PlaygroundState;
  onFieldError(id: string, reason: string | null): void;
  /** Why the chunk size typed is refused, or null. */
  invalid: string | null;
}

/** The chunk size, and the engine's precision, backend and strategy. */
const AlgorithmSection = memo(function AlgorithmSection(props: AlgorithmSectionProps) {
  const { report, onFieldError } = props;
  const set = setterOf(props.edit);
  const parseKey = parserOf(props.current);
  const engine = props.precision === "float32-engine";
  const strategies = strategyMenu(report?.backend ?? null, props.backend, props.strategy);
  return (
    <section className="panel" aria-labelledby="pg-algorithm-title">
      <h2 id="pg-algorithm-title">Algorithm</h2>
      <ChunkSizeControl
        chunkSize={props.chunkSize}
        maxLength={props.maxLength}
        parse={parseKey("chunk size", "chunkSize")}
        onChange={(c) => {
          onFieldError("chunkSize", null);
          set("chunkSize", c);
        }}
        onInvalid={(reason) => onFieldError("chunkSize", reason)}
        invalid={props.invalid}
      />
      <Fold id="pg-engine" summary={engineSummary(props.precision, report, strategies.value)}>
        <SelectField
          id="pg-precision"
          label="Precision"
          term="Precision"
          options={PRECISIONS}
          selected={props.precision}
          optionLabel={(p) => PRECISION_LABELS[p]}
          onSelect={(p) => set("precision", p)}
          testId="precision-select"
        />
        <SelectField
          id="pg-backend"
          label="Backend"
          value={report ? `running: ${report.backend}` : "starting…"}
          term="Backend"
          options={BACKEND_REQUESTS}
          selected={props.backend}
          optionLabel={(b) => (b === "auto" ? "auto (best available)" : b)}
          onSelect={(b) => set("backend", b)}
          testId="backend-select"
        />
        <SelectField
          id="pg-strategy"
          label="Strategy"
          term="Strategy"
          help={`${STRATEGY_INFO[strategies.value].description}${engine ? "" : " (Only the float32 engine uses it.)"}`}
          options={strategies.options}
          selected={strategies.value}
          optionLabel={(s) => STRATEGY_INFO[s].label}
          onSelect={(s) => set("strategy", s)}
          testId="strategy-select"
        />
      </Fold>
    </section>
  );
});

interface DisplaySectionProps extends Pick<PlaygroundState, "estimator" | "output" | "errorMetric" | "errorScope"> {
  setView: ControlsPanelProps["setView"];
}

/** What the charts show (GAE's output) and how the heatmap measures and colours the error. */
const DisplaySection = memo(function DisplaySection({
  estimator,
  output,
  errorMetric,
  errorScope,
  setView,
}: DisplaySectionProps) {
  return (
    <section className="panel" aria-labelledby="pg-display-title">
      <h2 id="pg-display-title">Display</h2>
      {estimator === "gae" ? (
        <Segmented
          id="pg-output"
          label="Chart"
          help="GAE has two outputs: the advantages A and the returns A + V. The summary covers both."
          options={["advantages", "returns"] as const}
          labels={{ advantages: "advantages", returns: "returns" }}
          value={output}
          onChange={(output) => setView({ output })}
        />
      ) : null}
      <Fold id="pg-display" summary="Heatmap: error measure and colour scope">
        <Segmented
          id="pg-metric"
          label="Error as"
          term="Error as"
          options={ERROR_METRICS}
          labels={METRIC_LABELS}
          value={errorMetric}
          onChange={(errorMetric) => setView({ errorMetric })}
        />
        <Segmented
          id="pg-scope"
          label="Colour scope"
          term="Colour scope"
          options={HEATMAP_SCOPES}
          labels={SCOPE_LABELS}
          value={errorScope}
          onChange={(errorScope) => setView({ errorScope })}
        />
      </Fold>
    </section>
  );
});
