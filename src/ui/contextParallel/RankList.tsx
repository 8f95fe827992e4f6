import { labelColor, rankColor } from "./cpGeometry";
import type { CpPanelModel } from "./cpPanelModel";
import { piecesText } from "./cpSteps";

/** Each rank in words: its two chunks and the response indices they hold, in local order. */
export function RankList({ model }: { model: CpPanelModel }) {
  const n = model.layout.cpSize;
  return (
    <ul className="cp-rank-list" data-testid="cp-rank-list">
      {model.ranks.map((rank) => {
        const fill = rankColor(rank.rank, n);
        return (
          <li key={rank.rank}>
            <span className="cp-swatch" style={{ background: fill, color: labelColor(fill) }}>
              r{rank.rank}
            </span>{" "}
            chunks {rank.chunks[0]} and {rank.chunks[1]} · response {piecesText(model, rank.rank)}
            <span className="muted"> ({rank.localLength} tokens)</span>
          </li>
        );
      })}
    </ul>
  );
}
