import { describe, expect, it } from "vitest";
import { STRATEGIES } from "../engine/strategy";
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
      'Ignored view="benchmark" in the address: view is one of home, conformance, player, bench; using home.',
    ]);
  });

  it("falls back to the default for an unknown value and says why", () => {
    const { state, problems } = parseUrlState("?view=conformance&backend=cuda");
    expect(state).toEqual({ ...DEFAULT_URL_STATE, view: "conformance" });
    expect(problems).toEqual([
      'Ignored backend="cuda" in the address: backend is one of auto, webgpu, webgl, wasm, cpu; using auto.',
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
      'Ignored backend in the address: it appears 2 times ("wasm", "webgpu") and they disagree; using auto.',
    ]);
  });

  it("uses a value repeated unchanged, and still says it was repeated", () => {
    const { state, problems } = parseUrlState("?view=conformance&view=conformance&strategy=per-token");
    expect(state).toEqual({ view: "conformance", backend: "auto", strategy: "per-token" });
    expect(problems).toEqual([
      'view appears 2 times in the address ("conformance", "conformance"); using conformance.',
    ]);
  });

  it("ignores an unknown value repeated, naming what is accepted", () => {
    const { state, problems } = parseUrlState("?strategy=fast&strategy=fast&strategy=fast");
    expect(state).toEqual(DEFAULT_URL_STATE);
    expect(problems).toEqual([
      `Ignored strategy in the address: it appears 3 times ("fast", "fast", "fast") and strategy is one of ${STRATEGIES.join(", ")}; using chunked.`,
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
