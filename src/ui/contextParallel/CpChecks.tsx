import type { CpPanelModel } from "../../compute/contextParallel/cpPanelModel";
import { formatShort } from "../../io/formatNumber";

/** The check that the reassembled result is cp_size 1's, and slime's PPO reward placement. */
export function CpChecks({ model }: { model: CpPanelModel }) {
  const { equality, ppo, layout, outputLabel } = model;
  return (
    <div className="cp-checks">
      <p
        className={`cp-check ${equality.equal ? "ok" : "bad"}`}
        data-testid="cp-equality"
        data-state={equality.equal ? "equal" : "differ"}
      >
        <span aria-hidden="true">{equality.equal ? "✓" : "✗"}</span>{" "}
        {equality.equal
          ? `Reassembled from ${layout.cpSize} rank${layout.cpSize === 1 ? "" : "s"}, the ${outputLabel} equal cp_size 1's bit for bit: ${equality.identical} of ${equality.total} float32 values identical (computed both ways just now).`
          : `The reassembled ${outputLabel} differ from cp_size 1's: ${equality.total - equality.identical} of ${equality.total} values, first at response token ${equality.firstDifference}.`}
      </p>
      {ppo.placement.correct ? (
        <p className="cp-check ok" data-testid="cp-ppo-ok">
          <span aria-hidden="true">✓</span> PPO reward placement: {ppo.note}
        </p>
      ) : (
        <div className="cp-warning" role="status" data-testid="cp-ppo-warning">
          <strong>⚠ PPO reward placement.</strong> {ppo.note}
          {ppo.difference ? (
            <span data-testid="cp-ppo-difference">
              {" "}
              On this row (its KL, values and outcome; β, γ, λ as set), the advantages of slime's PPO path differ from
              cp_size 1's at {ppo.difference.differing} of {layout.responseLength} tokens, by up to{" "}
              <span className="num">{formatShort(ppo.difference.maxAbs)}</span>
              {ppo.difference.worst !== null ? ` (token ${ppo.difference.worst})` : ""}.
            </span>
          ) : null}
          {ppo.error ? <span> Computing it here raises the same: {ppo.error}.</span> : null} REINFORCE++ adds its reward
          after the gather and is not affected.
        </div>
      )}
    </div>
  );
}
