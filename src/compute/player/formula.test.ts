import { describe, expect, it } from "vitest";
import { discountedProblem, gaeProblem, replayOf } from "../../testing/playerTestKit";
import { f64 } from "./captions";
import { derivation, inputTex, localSumTex, num, serialTex } from "./formula";

describe("the formula of an output", () => {
  const r = replayOf(discountedProblem(2, 13, 4, 0.9, 6));

  it("is the engine's arithmetic: fl32(local + fl32(carry · d^(k+1))) = the output", () => {
    for (let b = 0; b < 2; b++) {
      for (let t = 0; t < 13; t++) {
        const d = derivation(r, b, t);
        expect(d.carryTerm).toBe(Math.fround(d.carry * d.power));
        expect(d.value).toBe(Math.fround(d.local + d.carryTerm));
        expect(d.difference).toBe(d.value - d.serial);
        expect(Math.abs(d.difference)).toBeLessThanOrEqual(d.bound);
      }
    }
  });

  it("places t in its chunk and writes the real numbers into the TeX", () => {
    // t = 3 is reversed position 9: chunk 2, k = 1, carry power d².
    const d = derivation(r, 1, 3);
    expect([d.chunk, d.k]).toEqual([2, 1]);
    expect(d.power).toBe(Math.fround(Math.fround(0.9) ** 2));
    expect(d.tex[0]).toContain("G_{3}");
    expect(d.tex[0]).toContain("\\gamma^{2}");
    expect(d.tex[2]).toContain(d.value.toPrecision(9));
    expect(d.tex[4]).toContain("\\le");
  });

  it("names GAE's discount γλ and its residuals δ", () => {
    const g = replayOf(gaeProblem(1, 6, 4));
    const d = derivation(g, 0, 0);
    expect(d.tex[0]).toMatch(/^A_\{0\}/);
    expect(d.tex[0]).toContain("(\\gamma\\lambda)");
    expect(d.tex[3]).toContain("\\delta_{t'}");
  });

  it("writes a local sum out term by term, eliding the middle of long ones", () => {
    // 13 tokens, chunk 1, k = 2: reversed position 6 is t = 6, and the chunk's tokens so far are t = 8, 7, 6.
    expect(localSumTex(r, 0, 1, 2)).toMatch(
      /^S\^\{\\text\{local\}\}_\{6\} = r_\{8\}\\gamma\^\{2\} \+ r_\{7\}\\gamma\^\{1\} \+ r_\{6\}\\gamma\^\{0\}/,
    );
    const long = replayOf(discountedProblem(1, 16, 16));
    expect(localSumTex(long, 0, 0, 9)).toContain("\\cdots");
  });

  it("typesets exponents", () => {
    expect(num("1.5e-7")).toBe("1.5\\times10^{-7}");
    expect(num("-2e12")).toBe("-2\\times10^{12}");
    expect(num("0.123")).toBe("0.123");
  });
});

describe("the cards of input and serial cells", () => {
  it("write out where the scan reads an input, and one step of the serial loop with its numbers", () => {
    const r = replayOf(discountedProblem(1, 12, 4));
    const t = 5;
    const input = inputTex(r, 0, t);
    expect(input[0]).toContain(`r_{${t}} = `);
    expect(input[1]).toContain(`x_{${r.cols - 1 - t}}`);
    expect(input[1]).toContain("\\text{chunk } 1");
    const serial = serialTex(r, 0, t);
    expect(serial[0]).toContain(`G^{\\text{serial}}_{${t}}`);
    expect(serial[2]).toBe(`= ${num(f64(r.serial[t]))}`);
  });

  it("gives GAE's input card its residual δ_t = r_t + γ·V_(t+1) − V_t", () => {
    const r = replayOf(gaeProblem(1, 10, 4));
    expect(inputTex(r, 0, 3)[0]).toBe("\\delta_{3} = r_{3} + \\gamma\\, V_{4} - V_{3}");
  });
});
