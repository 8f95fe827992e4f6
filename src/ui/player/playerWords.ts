import type { TermPhrase } from "../glossary/termsInText";

/**
 * The glossary words the player's prose uses (the tour's stops and every step's caption), and how
 * its sentences say them. Each is marked once per stop or caption, where it first stands, so a
 * learner can open its definition without leaving the step.
 */
export const PLAYER_WORDS: readonly TermPhrase[] = [
  { word: "Reversed time", pattern: /\brevers(?:ed|es|e)\b/i },
  { word: "Local sum", pattern: /\blocal (?:sums?|scans?)\b/i },
  { word: "Carry", pattern: /\bcarr(?:y|ies|ied)\b/i },
  { word: "Chunk", pattern: /\bchunks?\b/i },
  { word: "Padding", pattern: /\bpad(?:s|ded|ding)?\b/i },
  { word: "Discount", pattern: /\bdiscount(?:ed|s)?\b/i },
  { word: "Reference", pattern: /\breference\b/i },
  { word: "Horizon", pattern: /\bhorizon\b/i },
  { word: "Bound", pattern: /\bbounds?\b/i },
  { word: "Verdict", pattern: /\bverdict\b/i },
];
