import { describe, expect, it } from "vitest";
import { DEFAULT_URL_STATE, formatUrlState, parseUrlState } from "./urlState";

describe("url state", () => {
  it("reads known values", () => {
    const { state, problems } = parseUrlState("?view=conformance&backend=wasm&strategy=two-level");
    expect(state).toEqual({ view: "conformance", backend: "wasm", strategy: "two-level" });
    expect(problems).toEqual([]);
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
});
