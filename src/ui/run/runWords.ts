import type { TermPhrase } from "../glossary/termsInText";

/**
 * The glossary words the run view's verdict prose uses (the stages' sentences, the bits line and the
 * diagnosis), and how those sentences say them. Each is marked once per verdict, where it first stands.
 */
export const RUN_WORDS: readonly TermPhrase[] = [
  { word: "Bound", pattern: /\bbounds?\b/i },
  { word: "Tolerance", pattern: /\btolerances?\b/i },
  { word: "Gap", pattern: /\bgaps?\b/i },
  { word: "ulp", pattern: /\bulps?\b/i },
  { word: "Bit-exact", pattern: /\bbit for bit\b/i },
  { word: "Carry", pattern: /\bcarr(?:y|ies|ied)\b/i },
  { word: "Chunk", pattern: /\bchunks?\b/i },
  { word: "Estimator", pattern: /\bestimator\b/i },
  { word: "Padding", pattern: /\bpad(?:s|ded|ding)?\b/i },
];
