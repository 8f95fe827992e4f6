import type { OutputName } from "./outputTables";

export const OUTPUT_LABELS: Record<OutputName, string> = {
  returns: "returns",
  advantages: "advantages",
  token_level_rewards: "token rewards",
};
