import type { CpPanelModel } from "../../compute/contextParallel/cpPanelModel";
import { piecesText } from "../../compute/contextParallel/cpSteps";
import { labelColor, rankColor } from "./cpGeometry";

/** Each rank in words: its two chunks and the response indices they hold, in local order. */
export function RankList({ model }: { model: CpPanelModel }) {
  const n = model.layout.cpSize;
  return (
    <table className="cp-table" data-testid="cp-rank-list">
      <thead>
        <tr>
          <th scope="col">rank</th>
          <th scope="col">chunks</th>
          <th scope="col">response indices, local order</th>
          <th scope="col">tokens</th>
        </tr>
      </thead>
      <tbody>
        {model.ranks.map((rank) => {
          const fill = rankColor(rank.rank, n);
          return (
            <tr key={rank.rank}>
              <th scope="row">
                <span className="cp-swatch" style={{ background: fill, color: labelColor(fill) }}>
                  r{rank.rank}
                </span>
              </th>
              <td className="num">
                {rank.chunks[0]} and {rank.chunks[1]}
              </td>
              <td className="num left">{piecesText(model, rank.rank)}</td>
              <td className="num">{rank.localLength}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
