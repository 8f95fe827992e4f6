import type { ConventionCase } from "./caseSchema";
import { describeThrown, failure, IoError, type IoResult, success } from "./ioError";
import { DEFAULT_CONVENTION, type PlaygroundRow, type PlaygroundState, parsePlaygroundState } from "./playgroundState";

/**
 * A library-convention case opened as it is: the library and estimator it names, its γ, λ, β,
 * whitening and reward clip as the playground's convention settings, and its rows (outcome
 * reward, KL, loss mask, values) unchanged, so that exporting it again gives the same case. The
 * view settings (precision, backend, strategy, error metric) and the libraries compared are kept
 * from `current`.
 */
export function openConventionCase(
  c: ConventionCase,
  index: number,
  current: PlaygroundState,
  source = "case file",
): IoResult<PlaygroundState> {
  const where = `cases[${index}] (${JSON.stringify(c.name)})`;
  try {
    const { gamma, lambd, kl_coef, normalize, reward_clip_range } = c.params;
    const rows = c.inputs.kl.map((kl, b): PlaygroundRow => {
      const values = c.inputs.values?.[b];
      return {
        length: kl.length,
        kl,
        lossMask: c.inputs.loss_masks[b],
        outcome: c.inputs.rewards[b],
        ...(c.estimator === "gae" && values ? { values } : {}),
      };
    });
    const previous = current.convention;
    const compare = (previous?.compare ?? []).filter((other) => other !== c.library);
    const candidate: PlaygroundState = {
      ...current,
      estimator: c.estimator,
      gamma,
      ...(lambd !== undefined ? { lambd } : {}),
      klCoef: kl_coef,
      selectedRow: 0,
      data: { source: "inline", rows },
      convention: {
        library: c.library,
        compare,
        normalize,
        // Only OpenRLHF clips; another library's case keeps the clip the page had.
        rewardClip:
          c.library === "openrlhf"
            ? (reward_clip_range ?? null)
            : (previous?.rewardClip ?? DEFAULT_CONVENTION.rewardClip),
      },
    };
    const parsed = parsePlaygroundState(candidate);
    if (!parsed.ok) {
      return failure(new IoError(where, `cannot be opened in the playground: ${parsed.error.message}`, source));
    }
    const notes = c.expect_error ? [`${c.name}: ${c.library} raises "${c.expect_error}" on these inputs`] : [];
    return success(parsed.state, notes);
  } catch (thrown) {
    return failure(new IoError(where, `cannot be opened (${describeThrown(thrown)})`, source));
  }
}
