import type { FitSample } from "./estimatorFits";
import { FIELD_LENGTHS, type WithFieldLengths } from "./fieldLengths";
import type { KlInputs } from "./klSource";
import type { ReplaySample } from "./settings";

/**
 * A fit's KL beside its sample's log-probs, each read when asked for (a streamed dump reads them
 * from its file). The getters on the prototype: an object made on the sample with a getter of its
 * own had a map of its own, 150,000 of them for as many samples. The lengths it says are its
 * sample's (FIELD_LENGTHS), as when it was made on the sample: readKl asks whether a KL is there
 * without reading it.
 */
export class FitKl implements KlInputs {
  readonly #sample: ReplaySample;
  readonly #fit: FitSample;

  constructor(sample: ReplaySample, fit: FitSample) {
    this.#sample = sample;
    this.#fit = fit;
  }

  get [FIELD_LENGTHS](): WithFieldLengths[typeof FIELD_LENGTHS] {
    return (this.#sample as WithFieldLengths)[FIELD_LENGTHS];
  }

  get kl(): ArrayLike<number> {
    return this.#fit.kl;
  }

  get logProbs(): ArrayLike<number> | undefined {
    return this.#sample.logProbs;
  }

  get refLogProbs(): ArrayLike<number> | undefined {
    return this.#sample.refLogProbs;
  }

  get rolloutLogProbs(): ArrayLike<number> | undefined {
    return this.#sample.rolloutLogProbs;
  }
}
