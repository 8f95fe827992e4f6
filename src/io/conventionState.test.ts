import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import { runConvention } from "../core";
import { conventionLibraries, conventionOf, stateToConvention } from "./conventionProblem";
import { DEFAULT_CONVENTION, type PlaygroundState, parsePlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE } from "./presets";
import { decodeState, encodeState, LINK_VERSION, stateFromSearch } from "./shareLink";

const withConvention: PlaygroundState = {
  ...DEFAULT_PLAYGROUND_STATE,
  convention: { library: "verl", compare: ["slime", "openrlhf"], normalize: true, rewardClip: [-2, 3] },
};

function messageOf(convention: unknown): string {
  const parsed = parsePlaygroundState({ ...DEFAULT_PLAYGROUND_STATE, convention });
  if (parsed.ok) throw new Error("expected the state to be refused");
  return parsed.error.message;
}

describe("the convention settings are part of the state", () => {
  it("travel in links and sessions", () => {
    const decoded = decodeState(encodeState(withConvention));
    expect(decoded).toEqual({ ok: true, state: withConvention });
  });

  it("are optional: a link written before them still opens, with the defaults", () => {
    const { convention: _, ...old } = DEFAULT_PLAYGROUND_STATE;
    const oldLink = LZString.compressToEncodedURIComponent(JSON.stringify({ v: LINK_VERSION, ...old }));
    const decoded = decodeState(oldLink);
    if (!decoded.ok) throw decoded.error;
    expect(decoded.state.convention).toBeUndefined();
    expect(conventionOf(decoded.state)).toEqual(DEFAULT_CONVENTION);
  });

  it("are refused with the field named when they make no sense", () => {
    expect(messageOf({ ...DEFAULT_CONVENTION, library: "trl" })).toBe(
      'convention.library: expected one of slime, openrlhf, verl, got "trl"',
    );
    expect(messageOf({ ...DEFAULT_CONVENTION, compare: ["slime"] })).toBe(
      "convention.compare[0]: slime is the library shown",
    );
    expect(messageOf({ ...DEFAULT_CONVENTION, compare: ["verl", "verl"] })).toBe(
      "convention.compare[1]: verl is listed twice",
    );
    expect(messageOf({ ...DEFAULT_CONVENTION, rewardClip: [3, 1] })).toBe(
      "convention.rewardClip: low 3 is above high 1",
    );
    expect(messageOf({ ...DEFAULT_CONVENTION, normalize: "yes" })).toBe(
      'convention.normalize: expected true or false, got "yes"',
    );
    expect(messageOf({ ...DEFAULT_CONVENTION, colour: 1 })).toBe(
      "convention.colour: unknown field (this version does not read it)",
    );
  });

  it("take readable overrides from the address", () => {
    const read = stateFromSearch("?library=openrlhf&compare=slime,verl&normalize=1", DEFAULT_PLAYGROUND_STATE);
    expect(read.problems).toEqual([]);
    expect(read.state.convention).toEqual({
      ...DEFAULT_CONVENTION,
      library: "openrlhf",
      compare: ["slime", "verl"],
      normalize: true,
    });
    const bad = stateFromSearch("?library=trl&compare=verl,verl", DEFAULT_PLAYGROUND_STATE);
    expect(bad.problems.map((p) => p.message)).toEqual([
      'Address: library=trl: expected one of slime, openrlhf, verl, got "trl"; ignored',
      "Address: compare=verl,verl: verl is listed twice; ignored",
    ]);
    // The library named leaves the compare list.
    const moved = stateFromSearch(`?s=${encodeState(withConvention)}&library=slime`, DEFAULT_PLAYGROUND_STATE);
    expect(moved.state.convention).toMatchObject({ library: "slime", compare: ["openrlhf"] });
  });
});

describe("stateToConvention", () => {
  const state: PlaygroundState = {
    ...BASE_SETTINGS,
    estimator: "gae",
    klCoef: 0.1,
    data: {
      source: "inline",
      rows: [
        { length: 3, kl: [0.1, 0.2, 0.3], lossMask: [1, 0, 1], values: [0.5, 0.25, 1], outcome: 1, rewards: [9, 9, 9] },
        { length: 2, outcome: -1 },
      ],
    },
    convention: { ...DEFAULT_CONVENTION, normalize: true },
  };

  it("hands each library the outcome, KL, mask and values lanes (absent lanes: zeros, mask ones)", () => {
    const inputs = stateToConvention(state, "float64");
    if (!inputs) throw new Error("expected inputs");
    expect(inputs.estimator).toBe("gae");
    expect(Array.from(inputs.batch.rewards)).toEqual([1, -1]);
    expect(inputs.batch.kl.map((row) => Array.from(row))).toEqual([[0.1, 0.2, 0.3].map(Math.fround), [0, 0]]);
    expect(inputs.batch.lossMasks.map((m) => Array.from(m))).toEqual([
      [1, 0, 1],
      [1, 1],
    ]);
    expect(inputs.batch.values?.map((row) => Array.from(row))).toEqual([
      [0.5, 0.25, 1],
      [0, 0],
    ]);
    expect(inputs.params).toEqual({
      gamma: 0.99,
      lambd: 0.95,
      klCoef: 0.1,
      normalize: true,
      rewardClipRange: [-10, 10],
    });
    // The rewards lane is not an input of any convention.
    const result = runConvention("slime", "gae", inputs.batch, { ...inputs.params, normalize: false });
    expect(result.tokenLevelRewards[0][2]).toBeCloseTo(1 - 0.1 * Math.fround(0.3), 12);
  });

  it("has nothing for plain discounted returns", () => {
    expect(stateToConvention({ ...state, estimator: "discounted" }, "float64")).toBeNull();
  });

  it("lists the library shown first, then the ones compared", () => {
    expect(conventionLibraries({ ...DEFAULT_CONVENTION, library: "verl", compare: ["slime"] })).toEqual([
      "verl",
      "slime",
    ]);
  });
});
