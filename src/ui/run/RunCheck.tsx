import type { RunCheck as Check } from "../../compute/run/runWorker";
import { TermsText } from "../glossary/TermsText";
import { RUN_WORDS } from "./runWords";

const STATUS_WORDS = { pass: "pass", fail: "departs", "not checked": "not checked" } as const;

/**
 * The dump's verdict stage by stage, in the order slime computes them (the rewards' post-processing,
 * the KL, the returns, the advantages), with what is wrong when something is: the known bug that
 * reproduces the stored numbers, or the first stage that departs, and a word on settings the user
 * typed that fail where those read off the dump pass.
 */
export function RunCheck({ check, onUseInferred }: { check: Check; onUseInferred: (() => void) | null }) {
  // Each glossary word is marked where it first stands in the verdict, not in every sentence.
  const taken = new Set<string>();
  return (
    <div className="run-check" data-testid="run-check" data-passed={check.passed}>
      <ol className="run-stages" data-testid="run-stages">
        {check.stages.map((stage) => (
          <li key={stage.stage} data-stage={stage.stage} data-status={stage.status}>
            <strong>{stage.stage}</strong>{" "}
            <span className={`run-stage-${stage.status.replace(" ", "-")}`}>{STATUS_WORDS[stage.status]}</span>
            {": "}
            <TermsText text={stage.sentence} phrases={RUN_WORDS} taken={taken} />
          </li>
        ))}
      </ol>
      {check.bits ? (
        <p className="muted small" data-testid="run-bits">
          <TermsText text={`Bit for bit: ${check.bits}.`} phrases={RUN_WORDS} taken={taken} />
        </p>
      ) : check.bitsPending ? (
        <p className="muted small" data-testid="run-bits-pending">
          Bit for bit: comparing the stored returns with slime's float32 CPU arithmetic…
        </p>
      ) : null}
      {check.diagnosis ? (
        <p className="run-diagnosis" data-testid="run-diagnosis">
          <strong>What is wrong:</strong> <TermsText text={check.diagnosis} phrases={RUN_WORDS} taken={taken} />
        </p>
      ) : null}
      {check.advice ? (
        <p className="run-advice" data-testid="run-advice">
          {check.advice}{" "}
          {onUseInferred ? (
            <button type="button" onClick={onUseInferred} data-testid="run-use-inferred">
              Use the settings read off the dump
            </button>
          ) : null}
        </p>
      ) : null}
    </div>
  );
}
