import { describe, expect, it } from "vitest";
import { heldInputs, unreadInputs } from "./laneUse";

const rewardsOnly = [{ length: 3, rewards: [0, 1, 0.5] }, { length: 2 }];

describe("which inputs each part of the page reads", () => {
  it("finds the inputs that hold something: zeros, an all-ones mask and a zero outcome hold nothing", () => {
    expect([...heldInputs(rewardsOnly)]).toEqual(["rewards"]);
    expect([...heldInputs([{ length: 2, kl: [0, 0], lossMask: [1, 1], outcome: 0 }])]).toEqual([]);
    const all = heldInputs([{ length: 2, kl: [0, 1], lossMask: [1, 0], outcome: 1, values: [2, 0] }]);
    expect([...all].sort()).toEqual(["kl", "lossMask", "outcome", "values"]);
  });

  it("says so when a part reads none of what the batch holds (it computes on zeros)", () => {
    const held = heldInputs(rewardsOnly);
    expect(unreadInputs("scan", "reinforce_pp", held)?.text).toBe(
      "REINFORCE++ reads KL, loss mask and outcome rewards; this batch has none of them, only rewards, so everything below is computed on zeros. Import the numbers as KL or as outcome rewards (Import → lane), or choose Discounted returns or GAE, which read rewards.",
    );
    expect(unreadInputs("conventions", "gae", held)?.text).toMatch(
      /^The library conventions .* read KL, loss mask, outcome rewards and values; this batch has none of them, only rewards, so their outputs are computed on zeros/,
    );
    expect(unreadInputs("scan", "gae", held)).toBeNull();
    expect(unreadInputs("scan", "discounted", held)).toBeNull();
    expect(unreadInputs("conventions", "discounted", held)).toBeNull();
  });

  it("names the lanes a part leaves unread while it reads others", () => {
    const held = heldInputs([{ length: 2, rewards: [1, 0], kl: [0.5, 0], outcome: 1 }]);
    expect(unreadInputs("scan", "reinforce_pp", held)).toEqual({
      onZeros: false,
      text: "REINFORCE++ reads KL, loss mask and outcome rewards; it does not read this batch's rewards.",
    });
    expect(unreadInputs("scan", "discounted", held)?.text).toBe(
      "The discounted-return scan reads rewards; it does not read this batch's KL and outcome rewards.",
    );
  });
});
