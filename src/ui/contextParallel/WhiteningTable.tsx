import type { CpPanelModel } from "../../compute/contextParallel/cpPanelModel";
import { formatShort } from "../../io/formatNumber";
import { labelColor, rankColor } from "./cpGeometry";
import { WhiteningLanes } from "./WhiteningLanes";

const meanStd = (s: { mean: number; std: number } | null) =>
  s ? `${formatShort(s.mean)} ± ${formatShort(s.std)}` : "N = 0: ValueError";

/** Each rank's whitening: the DP×CP group's statistics (slime today) against its own (before PR #2235). */
export function WhiteningTable({ model, width }: { model: CpPanelModel; width: number }) {
  const { whitening, layout, outputLabel } = model;
  return (
    <section className="cp-whitening" aria-label="Whitening per rank" data-testid="cp-whitening">
      <h3>Whitened {outputLabel === "advantages" ? "advantages" : `advantages (= the ${outputLabel})`} per rank</h3>
      <p className="muted small">
        slime's <code>distributed_masked_whiten</code>: (a − mean)/√(var + 1e-8) on every token, the statistics over
        unmasked tokens. Since PR #2235 they are summed over the DP×CP group, so one sample gets one normalisation;
        before it each CP rank used its own pieces. This sample is the whole group here (one DP rank).
      </p>
      {whitening.error ? <p className="cp-warning">{whitening.error}</p> : null}
      <p className="cp-legend small">
        <svg width="28" height="8" aria-hidden="true">
          <line x1="0" x2="28" y1="4" y2="4" className="cp-values" />
        </svg>{" "}
        with the DP×CP group's statistics (slime today){"  "}
        <svg width="28" height="8" aria-hidden="true">
          <line x1="0" x2="28" y1="4" y2="4" className="cp-values own" />
        </svg>{" "}
        with the rank's own (before PR #2235)
      </p>
      <WhiteningLanes model={model} width={width} />
      <table className="cp-table">
        <thead>
          <tr>
            <th scope="col">rank</th>
            <th scope="col">tokens</th>
            <th scope="col">unmasked</th>
            <th scope="col">DP×CP group: mean ± std</th>
            <th scope="col">own pieces: mean ± std</th>
            <th scope="col">max |group − own| whitened</th>
          </tr>
        </thead>
        <tbody>
          {whitening.rows.map((row) => {
            const fill = rankColor(row.rank, layout.cpSize);
            return (
              <tr key={row.rank} data-testid="cp-whitening-row">
                <th scope="row">
                  <span className="cp-swatch" style={{ background: fill, color: labelColor(fill) }}>
                    r{row.rank}
                  </span>
                </th>
                <td className="num">{row.tokens}</td>
                <td className="num">{row.n}</td>
                <td className="num">{meanStd(row.group)}</td>
                <td className="num">{meanStd(row.own)}</td>
                <td className="num">{row.maxDifference === null ? "–" : formatShort(row.maxDifference)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
