import { formatShort } from "../charts/formatNumber";
import { type SampleRow, worstFirst } from "./runModel";

export interface RunSamplesProps {
  rows: readonly SampleRow[];
  selected: number;
  onSelect(index: number): void;
}

const percent = (share: number) => `${(share * 100).toFixed(share > 0 && share < 0.01 ? 1 : 0)}%`;

/** Every sample, worst first: its length, reward, masked share, and the worst gap to the reference against its bound. */
export function RunSamples({ rows, selected, onSelect }: RunSamplesProps) {
  return (
    <div className="panel run-samples-panel">
      <h2>Samples, worst first</h2>
      <div className="table-scroll">
        <table className="run-samples" data-testid="run-samples">
          <thead>
            <tr>
              <th scope="col">sample</th>
              <th scope="col">rollout pos</th>
              <th scope="col">length</th>
              <th scope="col">reward</th>
              <th scope="col">masked</th>
              <th scope="col" title="largest |dump − reference| of the advantages">
                advantages gap
              </th>
              <th scope="col" title="largest |dump − reference| of the returns">
                returns gap
              </th>
              <th scope="col" title="the worst gap as a fraction of its token's float32 bound (pass ≤ 1)">
                worst gap / bound
              </th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            {worstFirst(rows).map((row) => {
              const v = row.verdict;
              return (
                <tr
                  key={row.index}
                  data-sample={row.index}
                  data-passed={v ? String(v.passed) : undefined}
                  aria-selected={row.index === selected}
                  className={row.index === selected ? "selected" : undefined}
                >
                  <td>
                    <button type="button" onClick={() => onSelect(row.index)} aria-label={`Show sample ${row.index}`}>
                      {row.index}
                    </button>
                  </td>
                  <td>{row.rolloutPosition ?? "–"}</td>
                  <td>{row.length}</td>
                  <td>{formatShort(row.reward)}</td>
                  <td>{percent(row.maskedShare)}</td>
                  <td>{v ? formatShort(v.advantages.maxGap) : "–"}</td>
                  <td>{v ? formatShort(v.returns.maxGap) : "–"}</td>
                  <td title={v ? `${v.worstField}[${v.worstToken}]` : undefined}>
                    {v ? `${formatShort(v.worstFraction)} at ${v.worstField}[${v.worstToken}]` : "–"}
                  </td>
                  <td className={v ? (v.passed ? "pass" : "fail") : undefined}>
                    {v
                      ? v.passed
                        ? "within bound"
                        : v.nonFinite
                          ? "▲ NaN/∞"
                          : "▲ over bound"
                      : (row.status ?? "not replayed")}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
