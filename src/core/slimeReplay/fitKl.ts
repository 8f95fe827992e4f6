import type { FitSample } from "./estimatorFits";
import type { KlInputs } from "./klSource";
import type { ReplaySample } from "./settings";

/**
 * A fit's KL beside its sample's log-probs, each read when asked for (a streamed dump reads them
 * from its file). The getters on the prototype: an object made on the sample with a getter of its
 * own had a map of its own, 150,000 of them for as many samples.
 */
export class FitKl implements KlInputs {
  readonly #sample: ReplaySample;
  readonly #fit: FitSample;

  constructor(sample: ReplaySample, fit: FitSample) {
    this.#sample = sample;
    this.#fit = fit;
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
