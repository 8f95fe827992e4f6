/**
 * Collects items as they arrive and hands them over in batches, at most once per interval:
 * drawing the table once per finished case costs a render per case, which for ten thousand
 * one-token cases takes far longer than running them.
 */
export class RowBatcher<T> {
  private pending: T[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (batch: T[]) => void,
    private readonly intervalMs = 100,
  ) {}

  add(item: T): void {
    this.pending.push(item);
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Hands over what is pending now. */
  flush(): void {
    this.clearTimer();
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.deliver(batch);
  }

  /** Drops what is pending: the run it belongs to is over or superseded. */
  cancel(): void {
    this.clearTimer();
    this.pending = [];
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
