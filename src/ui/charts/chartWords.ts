import type { TermPhrase } from "../glossary/termsInText";

/**
 * The glossary words of the charts' legends ("serial float64 (reference)", "chunk boundary", "bound"),
 * each marked once per legend where it first stands. "chunked" (the strategy's name) is not "chunk".
 */
export const CHART_WORDS: readonly TermPhrase[] = [
  { word: "Reference", pattern: /\breference\b/i },
  { word: "Chunk", pattern: /\bchunks?\b/i },
  { word: "Carry", pattern: /\bcarr(?:y|ies|ied)\b/i },
  { word: "Bound", pattern: /\bbounds?\b/i },
  { word: "Padding", pattern: /\bpad(?:s|ded|ding)?\b/i },
];
