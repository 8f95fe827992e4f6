import { SupersededError } from "../../engine/client";

/**
 * Runs one task at a time and keeps at most one waiting: a newer task replaces the waiting one,
 * whose promise rejects with SupersededError. While the pointer draws at 60 events a second a
 * slow worker so never builds a queue of answers nobody will look at.
 */
export class LatestOnly<T> {
  private running = false;
  private waiting?: { task: () => Promise<T>; resolve(value: T): void; reject(error: unknown): void };

  run(task: () => Promise<T>): Promise<T> {
    if (!this.running) return this.start(task);
    this.waiting?.reject(new SupersededError());
    return new Promise<T>((resolve, reject) => {
      this.waiting = { task, resolve, reject };
    });
  }

  private async start(task: () => Promise<T>): Promise<T> {
    this.running = true;
    try {
      return await task();
    } finally {
      this.running = false;
      const next = this.waiting;
      this.waiting = undefined;
      if (next) this.start(next.task).then(next.resolve, next.reject);
    }
  }
}
