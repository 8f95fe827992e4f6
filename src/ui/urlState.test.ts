import { describe, expect, it } from "vitest";
import { STRATEGIES } from "../names/strategies";
import { DEFAULT_URL_STATE, formatUrlState, parseUrlState } from "./urlState";

describe("url state", () => {
  it("reads known values", () => {
    const { state, problems } = parseUrlState("?view=conformance&backend=wasm&strategy=two-level");
    expect(state).toEqual({ view: "conformance", backend: "wasm", strategy: "two-level" });
    expect(problems).toEqual([]);
  });

  it("opens the benchmark panel, and names every view when the view is unknown", () => {
    expect(parseUrlState("?view=bench")).toEqual({ state: { ...DEFAULT_URL_STATE, view: "bench" }, problems: [] });
    expect(parseUrlState("?view=benchmark").problems).toEqual([
      'Address: view=benchmark: expected one of home, conformance, player, bench, run, glossary, got "benchmark"; ignored, using home',
    ]);
  });

  it("falls back to the default for an unknown value and says why", () => {
    const { state, problems } = parseUrlState("?view=conformance&backend=cuda");
    expect(state).toEqual({ ...DEFAULT_URL_STATE, view: "conformance" });
    expect(problems).toEqual([
      'Address: backend=cuda: expected one of auto, webgpu, webgl, wasm, cpu, got "cuda"; ignored, using auto',
    ]);
  });

  it("round-trips, leaving defaults out and other parameters alone", () => {
    const state = { view: "conformance", backend: "webgpu", strategy: "chunked" } as const;
    const search = formatUrlState(state, "?seed=3&backend=cpu");
    expect(search).toBe("?seed=3&backend=webgpu&view=conformance");
    expect(parseUrlState(search).state).toEqual(state);
    expect(formatUrlState(DEFAULT_URL_STATE)).toBe("");
  });

  it("reports a parameter given twice with different values and uses neither", () => {
    const { state, problems } = parseUrlState("?view=conformance&backend=wasm&backend=webgpu&strategy=two-level");
    expect(state).toEqual({ view: "conformance", backend: "auto", strategy: "two-level" });
    expect(problems).toEqual([
      'Address: backend appears 2 times ("wasm", "webgpu"): different values; ignored, using auto',
    ]);
  });

  it("uses a value repeated unchanged, and still says it was repeated", () => {
    const { state, problems } = parseUrlState("?view=conformance&view=conformance&strategy=per-token");
    expect(state).toEqual({ view: "conformance", backend: "auto", strategy: "per-token" });
    expect(problems).toEqual(['Address: view appears 2 times ("conformance", "conformance"); using conformance']);
  });

  it("ignores an unknown value repeated, naming what is accepted", () => {
    const { state, problems } = parseUrlState("?strategy=fast&strategy=fast&strategy=fast");
    expect(state).toEqual(DEFAULT_URL_STATE);
    expect(problems).toEqual([
      `Address: strategy appears 3 times ("fast", "fast", "fast"): expected one of ${STRATEGIES.join(", ")}; ignored, using chunked`,
    ]);
  });

  it("writes one value back for a repeated parameter", () => {
    const search = formatUrlState(
      { view: "conformance", backend: "wasm", strategy: "chunked" },
      "?backend=cpu&backend=webgl",
    );
    expect(new URLSearchParams(search).getAll("backend")).toEqual(["wasm"]);
  });
});
