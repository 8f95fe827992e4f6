import { describe, expect, it } from "vitest";
import type { PlaygroundState } from "../../io/playgroundState";
import { BASE_SETTINGS } from "../../io/presets";
import { inlineState } from "../../testing/playgroundStateKit";
import { packState, unpackState } from "./packState";

describe("packState", () => {
  it("round-trips inline rows through typed arrays, and leaves presets alone", () => {
    const state = inlineState([
      { length: 3, rewards: [1, Math.fround(0.1), -2], lossMask: [1, 0, 1], outcome: 2 },
      { length: 1, kl: [0.5], values: [3] },
    ]);
    const { packed, buffers } = packState(state);
    expect(buffers).toHaveLength(4);
    expect(unpackState(packed)).toEqual(state);
    const preset: PlaygroundState = {
      ...BASE_SETTINGS,
      data: { source: "preset", preset: "dense", seed: 1, rows: 2, tokens: 3, ragged: false },
    };
    expect(packState(preset)).toEqual({ packed: preset, buffers: [] });
  });
});
