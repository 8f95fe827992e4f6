import { chunkCarryDropped, chunkCarryMispowered } from "./chunkCarry";
import { grpoKlApplied } from "./grpoKlApplied";
import type { KnownVariant } from "./knownVariant";
import { ppoGaeTrainableOnly } from "./ppoGaeTrainableOnly";
import { ppoKlInplace } from "./ppoKlInplace";
import { ppoRewardLastTrainable } from "./ppoRewardLastTrainable";
import { returnsBfloat16 } from "./returnsBfloat16";
import { rppKlUnmasked } from "./rppKlUnmasked";
import { rppRestartAfterMask } from "./rppRestartAfterMask";
import { unevenGroupsBatchNorm } from "./unevenGroups";
import { whitenPerCpRank } from "./whitenPerCpRank";

export * from "./bfloat16Scan";
export * from "./chunkCarry";
export * from "./grpoKlApplied";
export * from "./knownVariant";
export * from "./ppoGaeTrainableOnly";
export * from "./ppoKlInplace";
export * from "./ppoRewardLastTrainable";
export * from "./returnsBfloat16";
export * from "./rppKlUnmasked";
export * from "./rppRestartAfterMask";
export * from "./scanVariant";
export * from "./unevenGroups";
export * from "./variantInputs";
export * from "./variantScans";
export * from "./whitenPerCpRank";

/**
 * Every known variant the diagnosis tries by default, one file each in this folder. To add one,
 * import it above and append it here; the diagnosis needs nothing else.
 */
export const KNOWN_VARIANTS: KnownVariant[] = [
  unevenGroupsBatchNorm,
  rppKlUnmasked,
  rppRestartAfterMask,
  whitenPerCpRank(),
  ppoKlInplace,
  ppoRewardLastTrainable,
  ppoGaeTrainableOnly,
  grpoKlApplied,
  chunkCarryMispowered,
  chunkCarryDropped,
  returnsBfloat16,
];
