import { describe, expect, it } from "vitest";
import { postTask, runInTasks } from "./budgetedTasks";

/** Resolves once `done()` returns true, polling in macrotasks. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(done()).toBe(true);
}

describe("runInTasks", () => {
  it("runs every step, none in the caller's task, and stops once a step says it is done", async () => {
    let steps = 0;
    runInTasks(() => ++steps === 50);
    expect(steps).toBe(0);
    await until(() => steps === 50);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(steps).toBe(50);
  });

  it("packs steps into tasks by their budget: with no limit, every step runs in one task", async () => {
    const tasks = new Set<number>();
    let task = 0;
    // A macrotask counter: each of our tasks sees the value of the last timer that ran before it.
    const tick = setInterval(() => task++, 0);
    let steps = 0;
    runInTasks(() => {
      tasks.add(task);
      return ++steps === 20;
    }, Number.POSITIVE_INFINITY);
    await until(() => steps === 20);
    clearInterval(tick);
    expect(tasks.size).toBe(1);
  });

  it("stops when told, between steps", async () => {
    let steps = 0;
    const stop = runInTasks(() => {
      steps++;
      return false;
    }, 0);
    await until(() => steps >= 3);
    stop();
    const seen = steps;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(steps).toBe(seen);
  });
});

describe("postTask", () => {
  it("runs the callback in a later task unless cancelled", async () => {
    const ran: string[] = [];
    postTask(() => ran.push("a"));
    const cancel = postTask(() => ran.push("b"));
    cancel();
    expect(ran).toEqual([]);
    await until(() => ran.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(ran).toEqual(["a"]);
  });
});
