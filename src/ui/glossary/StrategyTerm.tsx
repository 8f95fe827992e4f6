import type { Strategy } from "../../names/strategies";
import { STRATEGY_INFO } from "../strategyWords";
import { Term } from "./Term";

/** A strategy's name as its glossary word (each word written out, so the words test reads it). */
export function StrategyTerm({ strategy }: { strategy: Strategy }) {
  const label = STRATEGY_INFO[strategy].label;
  switch (strategy) {
    case "per-token":
      return <Term word="Per-token">{label}</Term>;
    case "chunked":
      return <Term word="Chunked">{label}</Term>;
    case "two-level":
      return <Term word="Two-level">{label}</Term>;
    case "fused":
      return <Term word="Fused">{label}</Term>;
  }
}
