import LZString from "lz-string";
import { describe, expect, it } from "vitest";
import { refusalMessage } from "../testing/resultKit";
import { DEFAULT_CONTEXT_PARALLEL, MAX_CELLS, type PlaygroundState } from "./playgroundState";
import { BASE_SETTINGS, DEFAULT_PLAYGROUND_STATE, EXAMPLES } from "./presets";
import {
  decodeState,
  encodeState,
  linkText,
  MAX_LINK_NUMBERS,
  searchBeside,
  stateFragment,
  stateFromSearch,
} from "./shareLink";

/** The address (query and fragment) the page writes for a state: `?view=…#s=…`. */
const stateToAddress = (state: PlaygroundState, previousSearch = "") =>
  `${searchBeside(previousSearch)}${stateFragment(encodeState(state))}`;

const drawn: PlaygroundState = {
  ...BASE_SETTINGS,
  estimator: "gae",
  gamma: 0.95,
  chunkSize: 64,
  selectedRow: 1,
  errorMetric: "ulp",
  data: {
    source: "inline",
    rows: [
      { length: 3, rewards: [0.5, -1.25, 3], values: [Math.fround(0.1), 0, 2], lossMask: [1, 0, 1], outcome: 0.7 },
      { length: 2, kl: [1e-30, -3e38].map(Math.fround) },
    ],
  },
};

const refusal = (text: string) => refusalMessage(decodeState(text), "link");

const wire = (value: unknown) => LZString.compressToEncodedURIComponent(JSON.stringify(value));

describe("share links", () => {
  it("round-trip every example and hand-drawn data exactly", () => {
    for (const state of [...EXAMPLES.map((e) => e.state), drawn]) {
      expect(decodeState(encodeState(state))).toEqual({ ok: true, state });
    }
  });

  it("store a preset by its seed, so its link stays short", () => {
    const big = { ...DEFAULT_PLAYGROUND_STATE, data: { ...DEFAULT_PLAYGROUND_STATE.data, rows: 16, tokens: 8192 } };
    expect(encodeState(big as PlaygroundState).length).toBeLessThan(400);
  });

  it("pack inline floats as float32 (a non-float32 value comes back rounded)", () => {
    const state = { ...drawn, data: { source: "inline" as const, rows: [{ length: 1, rewards: [0.1] }] } };
    const decoded = decodeState(encodeState(state));
    expect(decoded.ok && decoded.state.data.source === "inline" && decoded.state.data.rows[0].rewards).toEqual([
      Math.fround(0.1),
    ]);
  });

  it("keep a long random row smaller than decimal text would", () => {
    const rewards = Array.from({ length: 8192 }, (_, i) => Math.fround(Math.sin(i * 12.9898) * 43758.5453));
    const state = { ...drawn, data: { source: "inline" as const, rows: [{ length: 8192, rewards }] } };
    expect(encodeState(state).length).toBeLessThan(JSON.stringify(rewards).length * 0.75);
  });

  it("write runs of equal values in the compressed JSON and varied lanes as raw parts after it", () => {
    const varied = Array.from({ length: 64 }, (_, i) => Math.fround(Math.cos(i * 7.1)));
    const mask = Array.from({ length: 64 }, (_, i) => (i % 3 === 0 ? 0 : 1)) as (0 | 1)[];
    const rows = [
      { length: 64, rewards: new Array(64).fill(0), lossMask: new Array<0 | 1>(64).fill(1) },
      { length: 64, values: varied, lossMask: mask },
    ];
    const state: PlaygroundState = { ...drawn, data: { source: "inline", rows } };
    const token = encodeState(state);
    const [json, ...parts] = token.split(".");
    expect(parts).toHaveLength(2);
    const wireRows = JSON.parse(LZString.decompressFromEncodedURIComponent(json)).data.rows;
    expect(wireRows[0]).toEqual({ length: 64, rewards: { runs: [0, 64] }, lossMask: { runs: [1, 64] } });
    expect(wireRows[1]).toEqual({ length: 64, values: "@0", lossMask: "@1" });
    expect(parts[0]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeState(token)).toEqual({ ok: true, state });
  });

  it("refuse packed lanes that do not fit their row", () => {
    const link = (row: Record<string, unknown>, ...parts: string[]) =>
      [wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows: [row] } }), ...parts].join(".");
    expect(refusal(link({ length: 2, kl: "@1" }, "AAAAAAAAAAA"))).toBe(
      'Shared link: data.rows[0].kl: refers to part "@1", but the link has 1 parts',
    );
    expect(refusal(link({ length: 2, kl: "@0" }, "AA*A"))).toBe(
      "Shared link: data.rows[0].kl: part 0 is not valid base64url",
    );
    expect(refusal(link({ length: 9, lossMask: "@0" }, "_w"))).toBe(
      "Shared link: data.rows[0].lossMask: part 0 holds 8 mask bits for 9 tokens",
    );
    expect(refusal(link({ length: 2, rewards: { runs: [0, 1, 5] } }))).toBe(
      "Shared link: data.rows[0].rewards: runs: expected a list of value, count pairs",
    );
    expect(refusal(link({ length: 2, rewards: { runs: [0, 1e12] } }))).toBe(
      `Shared link: data.rows[0].rewards: the link holds more than ${MAX_LINK_NUMBERS} numbers`,
    );
    expect(refusal(link({ length: 3, rewards: { runs: [0, 2] } }))).toBe(
      "Shared link: data.rows[0].rewards: expected 3 values (length), got 2",
    );
  });

  it("refuse a damaged link with a message, never an exception", () => {
    expect(refusal("")).toBe("Shared link: is empty");
    expect(refusal("!!!")).toMatch(/^Shared link: is damaged/);
    const token = encodeState(drawn);
    expect(refusal(token.slice(0, token.length / 2))).toMatch(/^Shared link: is damaged/);
    expect(refusal(LZString.compressToEncodedURIComponent("{not json"))).toMatch(
      /is damaged \(its content is not JSON\)/,
    );
    expect(refusal(wire([1, 2]))).toBe("Shared link: does not hold a playground state");
    expect(refusal(wire({ ...DEFAULT_PLAYGROUND_STATE, v: 2 }))).toBe(
      "Shared link: v: this link is format 2; this version of Scanlab reads format 1",
    );
  });

  it("name the field at fault in a well-formed link", () => {
    expect(refusal(wire({ v: 1, ...DEFAULT_PLAYGROUND_STATE, gamma: 1.5 }))).toBe(
      "Shared link: gamma: expected a number between 0 and 1, got 1.5",
    );
    const rows = [
      { length: 2, kl: "AAAAAAAAAAA=" },
      { length: 1, kl: "AAA" },
    ];
    expect(refusal(wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows } }))).toBe(
      "Shared link: data.rows[1].kl: is not valid base64",
    );
    const odd = [{ length: 1, rewards: "AAAAAAA=" }];
    expect(refusal(wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows: odd } }))).toBe(
      "Shared link: data.rows[0].rewards: holds 5 bytes, not a whole number of float32 values (4 bytes each)",
    );
    const mask = [{ length: 3, lossMask: "1x1" }];
    expect(refusal(wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows: mask } }))).toBe(
      'Shared link: data.rows[0].lossMask: character 1: expected 0 or 1, got "x"',
    );
  });

  it("accept plain number arrays written by a script", () => {
    const decoded = decodeState(
      wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows: [{ length: 2, rewards: [1, 2] }] } }),
    );
    expect(decoded.ok && decoded.state.data).toEqual({ source: "inline", rows: [{ length: 2, rewards: [1, 2] }] });
  });

  it("refuse a link holding more numbers than the limit before decoding them", () => {
    const rows = [
      { length: 1, rewards: "A".repeat(16 * 100) },
      { length: 1, lossMask: "1".repeat(101) },
    ];
    const text = wire({ v: 1, ...BASE_SETTINGS, data: { source: "inline", rows } });
    const refused = decodeState(text, "Shared link", 400);
    expect(!refused.ok && refused.error.message).toBe(
      "Shared link: data.rows[1].lossMask: the link holds more than 400 numbers",
    );
    expect(MAX_LINK_NUMBERS).toBe(4 * MAX_CELLS);
  });
});

describe("the context-parallel panel's settings", () => {
  const withPanel: PlaygroundState = {
    ...drawn,
    contextParallel: { open: true, cpSize: 7, promptLength: 300, step: "gather" },
  };

  it("travel in links and saved sessions, so a link reopens the panel as it was", () => {
    expect(decodeState(encodeState(withPanel))).toEqual({ ok: true, state: withPanel });
  });

  it("are absent from links written before them, which open with the panel's defaults", () => {
    // Written by the version before the panel's settings were kept (a REINFORCE++ preset, γ = 0.97).
    const old =
      "N4IgbiBcCMA0IFMDOAXAlgWwIYoPYCcoR8E0A7AMwIGMEB9ABwZHgHMsNsoAGAOgE4A7PAA2HAEYATHgICs8agAsArmQDWAZTQAvBFGgAmABzw1IgMK4EFGd3kgGJamiRpcZIhRG4cAZgMAtAhkrOR68OJY1GrB0pAgWMp4LCCo+DgIrACeREqqMdLwSAgiCNQoCJIASrgA7jzwCPj4BACyCCj4aNREWOJIKU0t+BrUuAx68ZEoSim4SQxJvZJgWGQoWKzIKZI4WFCgSPP4tESOyB0p58UoRBjKIugBKMr4HkUIlfrwLbUDkAAWeB4GJkf6+bjcH6bLZxTrKBAAX0RQA";
    const decoded = decodeState(old);
    expect(decoded.ok && decoded.state.gamma).toBe(0.97);
    expect(decoded.ok && decoded.state.contextParallel).toBeUndefined();
    expect(DEFAULT_CONTEXT_PARALLEL).toEqual({ open: false, cpSize: 4, promptLength: 64, step: "split" });
  });

  it("are refused field by field when out of range, naming the field and the limit", () => {
    const bad = (patch: Record<string, unknown>) =>
      refusal(
        wire({
          v: 1,
          ...withPanel,
          data: DEFAULT_PLAYGROUND_STATE.data,
          contextParallel: { ...withPanel.contextParallel, ...patch },
        }),
      );
    expect(bad({ cpSize: 9 })).toBe("Shared link: contextParallel.cpSize: expected an integer between 1 and 8, got 9");
    expect(bad({ cpSize: "4" })).toBe(
      'Shared link: contextParallel.cpSize: expected an integer between 1 and 8, got "4"',
    );
    expect(bad({ promptLength: 0 })).toBe(
      "Shared link: contextParallel.promptLength: expected an integer between 1 and 65536, got 0",
    );
    expect(bad({ promptLength: 1e9 })).toMatch(/^Shared link: contextParallel.promptLength: expected an integer/);
    expect(bad({ step: "<b>x</b>" })).toBe(
      'Shared link: contextParallel.step: expected one of split, shift, pieces, gather, scan, slice, got "<b>x</b>"',
    );
    expect(bad({ open: "yes" })).toBe('Shared link: contextParallel.open: expected true or false, got "yes"');
    expect(bad({ rank: 1 })).toBe("Shared link: contextParallel.rank: unknown field (this version does not read it)");
  });
});

describe("the address", () => {
  it("carries the state in the fragment, keeping the page's own parameters and no readable override", () => {
    const address = stateToAddress(drawn, "?view=home&backend=wasm&gamma=0.5&s=old");
    const [search, hash] = [address.slice(0, address.indexOf("#")), address.slice(address.indexOf("#"))];
    // backend is the state's now: left in the query it would override the state on the next load.
    expect(search).toBe("?view=home");
    expect(hash).toBe(`#s=${encodeState(drawn)}`);
    const read = stateFromSearch(search, DEFAULT_PLAYGROUND_STATE, hash);
    expect(read).toMatchObject({ fromLink: true, problems: [] });
    expect(read.state).toEqual(drawn);
  });

  it("still opens links that carried the state in the query, and prefers the fragment", () => {
    const old = stateFromSearch(`?s=${encodeState(drawn)}`, DEFAULT_PLAYGROUND_STATE);
    expect(old).toMatchObject({ fromLink: true, state: drawn });
    const both = { ...drawn, gamma: 0.25 };
    expect(linkText(`?s=${encodeState(drawn)}`, `#s=${encodeState(both)}`)).toBe(encodeState(both));
    // A fragment percent-encoded on the way (some chat clients do) reads the same.
    expect(linkText("", `#s=${encodeURIComponent(encodeState(both))}`)).toBe(encodeState(both));
    expect(linkText("?view=player", "#other=1")).toBeNull();
  });

  it("reports a parameter given twice instead of taking one of them", () => {
    const read = stateFromSearch("?gamma=0.9&gamma=0.5&chunk=8&chunk=8", DEFAULT_PLAYGROUND_STATE);
    expect(read.state.gamma).toBe(DEFAULT_PLAYGROUND_STATE.gamma);
    expect(read.state.chunkSize).toBe(8);
    expect(read.problems.map((p) => p.message)).toEqual([
      'Address: gamma: appears 2 times ("0.9", "0.5"); ignored',
      'Address: chunk: appears 2 times ("8", "8")',
    ]);
  });

  it("leaves backend and strategy problems to the page's own address check (one notice, not two)", () => {
    const read = stateFromSearch("?backend=evil&strategy=a&strategy=b", DEFAULT_PLAYGROUND_STATE);
    expect(read.problems).toEqual([]);
    expect(read.state.backend).toBe(DEFAULT_PLAYGROUND_STATE.backend);
  });

  it("applies readable overrides and reports the ones it ignores", () => {
    const read = stateFromSearch("?gamma=0.9&chunk=64&estimator=gae&kl=abc&seed=7&rows=2", DEFAULT_PLAYGROUND_STATE);
    expect(read.fromLink).toBe(false);
    expect(read.state).toMatchObject({ gamma: 0.9, chunkSize: 64, estimator: "gae", klCoef: 0.05 });
    expect(read.state.data).toMatchObject({ source: "preset", seed: 7, rows: 2 });
    expect(read.problems.map((p) => p.message)).toEqual([
      'Address: kl=abc: expected a number between 0 and 1000000, got "abc"; ignored',
    ]);
    const inline = stateFromSearch(`?s=${encodeState(drawn)}&seed=3`, DEFAULT_PLAYGROUND_STATE);
    expect(inline.problems.map((p) => p.message)).toEqual([
      "Address: seed=3: applies to seeded presets, and this batch has inline rows; ignored",
    ]);
    expect(inline.state).toEqual(drawn);
    const switched = stateFromSearch(
      `?s=${encodeState(drawn)}&preset=dense&seed=3&ragged=maybe`,
      DEFAULT_PLAYGROUND_STATE,
    );
    expect(switched.problems.map((p) => p.message)).toEqual([
      'Address: ragged=maybe: expected true or false, got "maybe"; ignored',
    ]);
    expect(switched.state.data).toEqual({
      source: "preset",
      preset: "dense",
      seed: 3,
      rows: 4,
      tokens: 300,
      ragged: true,
    });
  });

  it("reads ?carries=1 (the returns chart's carries) as a view flag, kept in the state's own links", () => {
    const on = stateFromSearch("?carries=1", DEFAULT_PLAYGROUND_STATE);
    expect(on.problems).toEqual([]);
    expect(on.state.showCarries).toBe(true);
    expect(stateFromSearch("?carries=true", DEFAULT_PLAYGROUND_STATE).state.showCarries).toBe(true);
    const withCarries = { ...drawn, showCarries: true };
    const off = stateFromSearch("?carries=0", DEFAULT_PLAYGROUND_STATE, `#s=${encodeState(withCarries)}`);
    expect(off.state.showCarries).toBeUndefined();
    expect(stateFromSearch("", DEFAULT_PLAYGROUND_STATE, `#s=${encodeState(withCarries)}`).state).toEqual(withCarries);
    expect(stateToAddress(withCarries, "?carries=1&view=home")).toBe(`?view=home#s=${encodeState(withCarries)}`);
    expect(stateFromSearch("?carries=maybe", DEFAULT_PLAYGROUND_STATE).problems.map((p) => p.message)).toEqual([
      'Address: carries=maybe: expected true or false, got "maybe"; ignored',
    ]);
  });

  it("falls back on a bad s and says why", () => {
    const read = stateFromSearch("?s=garbage&gamma=0.5", DEFAULT_PLAYGROUND_STATE);
    expect(read.fromLink).toBe(false);
    expect(read.error?.message).toMatch(/^Shared link: is damaged/);
    expect(read.state).toEqual({ ...DEFAULT_PLAYGROUND_STATE, gamma: 0.5 });
  });
});
