/**
 * The main thread's handle on the engine worker (worker.ts). It imports no tfjs: everything runs
 * in the worker. Latest request wins; a worker that dies (error event, lost WebGPU device) is
 * replaced by one on the next backend down, and every call pending on it rejects at once.
 */
import * as Comlink from "comlink";
import { type ConventionProblem, conventionBuffers, problemBuffers, ScanInputError, type ScanProblem } from "../core";
import { BACKENDS, type BackendName, type BackendReport, type BackendRequest, backendBelow } from "../names/backends";
import { type Strategy, strategyOn } from "../names/strategies";
import type { ConventionRun } from "./conventions/runConventionProblem";
import { sameInputs, withoutInputs } from "./keptInputs";
import type { EngineResult, EngineRun, RunOptions } from "./runProblem";
import { hungMessage, problemDeadlineMs, WATCHDOG_BASE_MS } from "./watchdog";
import type {
  ConventionProblemResult,
  EngineWorkerApi,
  ProblemFailure,
  ProblemResult,
  RunEnd,
  SimulatedFault,
} from "./worker";

export type { ConventionRun } from "./conventions/runConventionProblem";
export type { EngineRun } from "./runProblem";
export type { ConventionProblemResult, ProblemFailure, ProblemResult, SimulatedFault } from "./worker";

/** The promise of a request that a newer one replaced; its results were dropped. */
export class SupersededError extends Error {
  constructor(message = "superseded by a newer request") {
    super(message);
    this.name = "SupersededError";
  }
}

/** The request was cancelled by the user (EngineClient.cancel); its results were dropped. */
export class CancelledError extends SupersededError {
  constructor(message = "cancelled") {
    super(message);
    this.name = "CancelledError";
  }
}

/** The worker stopped (crash, error event, lost GPU device) while the call was pending. */
export class WorkerDiedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerDiedError";
  }
}

/** What the client tells the page about the engine, as it happens. */
export type EngineEvent =
  | { type: "ready"; report: BackendReport }
  /** A visible notice: a fallback to a lower backend, or a restart after the worker died. */
  | { type: "notice"; message: string }
  /** A strategy the backend cannot run was replaced by one it can (the page words it: ui/strategyWords.ts). */
  | { type: "strategy-replaced"; asked: Strategy; strategy: Strategy; backend: string };

/** An event the page shows as a notice. */
export type EngineNotice = Exclude<EngineEvent, { type: "ready" }>;

export interface RunOutcome {
  /** One per problem, in order (fewer only if the run ended early). */
  results: ProblemResult[];
  /** `tf.getBackend()` in the worker at the end of the run. */
  backend: string;
  report: BackendReport;
  /** The strategy that ran: the one asked for, or chunked where the backend cannot run it (a notice says so). */
  strategy: Strategy;
}

export interface ConventionRunOutcome {
  /** One per problem, in order (fewer only if the run ended early). */
  results: ConventionProblemResult[];
  /** `tf.getBackend()` in the worker at the end of the run. */
  backend: string;
  report: BackendReport;
}

/**
 * Who asks the engine, and how urgently. A caller's newer request replaces its older one (waiting
 * or running: that one rejects with SupersededError); another caller's request waits for the one
 * running (a problem in the worker cannot be interrupted), and the waiting request of the highest
 * priority goes next (the oldest of equals).
 */
export interface Caller {
  name: string;
  priority: number;
}

/** The caller of a view that asks one thing at a time: each request replaces the one before. */
export const ANY_CALLER: Caller = { name: "default", priority: 0 };

export interface EngineClientOptions {
  backend?: BackendRequest;
  /** How to start a worker; the default is the bundled module worker. */
  createWorker?: () => Worker;
  /** The fixed part of the watchdog's deadline per problem (watchdog.ts); tests shorten it. */
  watchdogBaseMs?: number;
}

interface Session {
  worker: Worker;
  api: Comlink.Remote<EngineWorkerApi>;
  request: BackendRequest;
  ready: Promise<BackendReport>;
  report?: BackendReport;
  /** Rejects, with the reason, when the session ends; every pending call races it. */
  ended: Promise<never>;
  end(error: Error): void;
}

/** A request with its turn in the queue: `cancel` rejects it, waiting or running. */
interface QueuedRun {
  id: number;
  caller: Caller;
  cancel(error: Error): void;
}

/** How many workers may fail before coming up, in a row, before the client stops restarting. */
const MAX_FAILED_STARTS = BACKENDS.length + 1;

export class EngineClient {
  private request: BackendRequest;
  private readonly createWorker: () => Worker;
  private readonly watchdogBaseMs: number;
  private current?: Session;
  private activeRun?: QueuedRun;
  /** Requests of other callers than the running one's, each waiting for its turn. */
  private waiting: { run: QueuedRun; go(): void }[] = [];
  private runCounter = 0;
  private failedStarts = 0;
  /** The backend each replaced strategy was last said to be replaced on (one notice per change). */
  private readonly strategyNotices = new Map<Strategy, string>();
  private disposed = false;
  private readonly listeners = new Set<(event: EngineEvent) => void>();
  /** The problem whose input arrays a worker keeps (runOutputsKept), and that worker's api. */
  private keptInputs: { api: Comlink.Remote<EngineWorkerApi>; problem: ScanProblem } | null = null;

  constructor(options: EngineClientOptions = {}) {
    this.request = options.backend ?? "auto";
    this.createWorker =
      options.createWorker ?? (() => new Worker(new URL("./worker.ts", import.meta.url), { type: "module" }));
    this.watchdogBaseMs = options.watchdogBaseMs ?? WATCHDOG_BASE_MS;
  }

  /** The backend the next worker will be asked for (changes after a fallback restart). */
  get requested(): BackendRequest {
    return this.request;
  }

  /** The report of the running worker, once it is up. */
  get report(): BackendReport | undefined {
    return this.current?.report;
  }

  /** Listens to ready reports and notices; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Switches backend: the worker is replaced and a run in progress rejects with SupersededError. */
  selectBackend(request: BackendRequest): void {
    if (request === this.request && this.current) return;
    this.request = request;
    this.failedStarts = 0;
    this.current?.end(new SupersededError(`superseded: the backend changed to ${request}`));
    this.current = undefined;
  }

  /** Starts the worker if needed and resolves with the backend that came up. */
  ready(): Promise<BackendReport> {
    const session = this.session();
    return Promise.race([session.ended, session.ready]);
  }

  /**
   * Solves every problem in one request, in order, calling `onResult` as each one finishes. The
   * problems' typed arrays are transferred to the worker (they are empty here afterwards). A
   * newer call makes this one reject with SupersededError; nothing of it reaches `onResult` after.
   * `trace: false` leaves out each chunk's local scan and carry: callers that only judge or draw
   * the outputs (the conformance view, the playground) then move half as much back.
   */
  async runProblems(
    problems: ScanProblem[],
    strategy: Strategy,
    onResult?: (result: ProblemResult) => void,
    options: RunOptions = {},
    caller: Caller = ANY_CALLER,
  ): Promise<RunOutcome> {
    return this.sendRequest<ProblemResult>(
      strategy,
      (api, id, receive, runs) =>
        api.runProblems(id, Comlink.transfer(problems, problemBuffers(problems)), runs, receive, options),
      (runs) => problems.map((p) => problemDeadlineMs(p, runs, this.watchdogBaseMs)),
      onResult,
      caller,
    );
  }

  /**
   * Computes library conventions (slime, OpenRLHF, verl) on the engine, one request, in order,
   * exactly as runProblems does for scan problems: `onResult` sees each as it finishes, the
   * problems' typed arrays are transferred (empty here afterwards: pass copies of what you keep),
   * and the same caller's newer request (of either kind) makes this one reject with SupersededError.
   */
  async runConventions(
    problems: ConventionProblem[],
    strategy: Strategy,
    onResult?: (result: ConventionProblemResult) => void,
    caller: Caller = ANY_CALLER,
  ): Promise<ConventionRunOutcome> {
    return this.sendRequest<ConventionProblemResult>(
      strategy,
      (api, id, receive, runs) =>
        api.runConventions(id, Comlink.transfer(problems, conventionBuffers(problems)), runs, receive),
      (runs) => problems.map((p) => problemDeadlineMs(p, runs, this.watchdogBaseMs)),
      onResult,
      caller,
    );
  }

  /** Computes one convention; throws its error re-created (a ScanInputError keeps its referenceType). */
  async runConvention(
    problem: ConventionProblem,
    strategy: Strategy,
    caller: Caller = ANY_CALLER,
  ): Promise<ConventionRun> {
    const { results } = await this.runConventions([problem], strategy, undefined, caller);
    const result = results[0];
    if (!result) throw new Error("the engine returned no result");
    if (!result.ok) throw errorFromFailure(result.error);
    return result.run;
  }

  /**
   * One worker request, in its caller's turn (Caller): the caller's latest wins, and the session's
   * end or a cancel rejects it at once. A watchdog gives each problem `deadlines[i]` ms to answer;
   * a worker that misses one is taken for hung (a GPU can stop without losing its device),
   * abandoned and restarted one backend down.
   */
  private async sendRequest<R>(
    asked: Strategy,
    call: (
      api: Comlink.Remote<EngineWorkerApi>,
      id: number,
      receive: (result: R) => void,
      strategy: Strategy,
    ) => Promise<RunEnd>,
    deadlinesFor: (strategy: Strategy) => number[],
    onResult: ((result: R) => void) | undefined,
    caller: Caller,
  ): Promise<{ results: R[]; backend: string; report: BackendReport; strategy: Strategy }> {
    const id = ++this.runCounter;
    let cancel!: (error: Error) => void;
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
    });
    cancelled.catch(() => {});
    const run: QueuedRun = { id, caller, cancel };
    // The caller's older request, waiting or running, is replaced.
    for (const older of this.waiting)
      if (older.run.caller.name === caller.name) older.run.cancel(new SupersededError());
    this.waiting = this.waiting.filter((older) => older.run.caller.name !== caller.name);
    if (this.activeRun?.caller.name === caller.name) {
      this.activeRun.cancel(new SupersededError());
      this.activeRun = undefined;
    }
    const turn = new Promise<void>((go) => this.waiting.push({ run, go }));
    this.next();
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    try {
      // Its turn now, or once the running request of another caller ends (the session is the one of that time).
      if (this.activeRun !== run) await Promise.race([cancelled, turn]);
      const session = this.session();
      // The session's end and the cancel come first: when several have settled, they win.
      const report = await Promise.race([session.ended, cancelled, session.ready]);
      // A strategy the backend cannot run (fused off webgpu, after a fallback or by request) is
      // replaced up front, and said once per backend, rather than failing every problem.
      const { strategy, replaced } = strategyOn(asked, report.backend);
      if (replaced && this.strategyNotices.get(asked) !== report.backend) {
        this.strategyNotices.set(asked, report.backend);
        this.emit({ type: "strategy-replaced", asked, strategy, backend: report.backend });
      }
      const deadlines = deadlinesFor(strategy);
      const results: R[] = [];
      const arm = () => {
        clearTimeout(watchdog);
        const deadline = deadlines[Math.min(results.length, deadlines.length - 1)];
        if (deadline === undefined || results.length >= deadlines.length) return;
        watchdog = setTimeout(() => {
          if (this.activeRun?.id === id) this.died(session, hungMessage(deadline));
        }, deadline);
      };
      arm();
      // Every result in: the run is answered without waiting for the worker's end of it, one more
      // hop through both threads (its acknowledgement of the last result, then the end).
      let answered!: (end: { backend: string }) => void;
      const allIn = new Promise<{ backend: string }>((resolve) => {
        answered = resolve;
      });
      const receive = Comlink.proxy((result: R) => {
        if (this.activeRun?.id !== id) return;
        results.push(result);
        arm();
        onResult?.(result);
        if (results.length === deadlines.length) answered({ backend: report.backend });
      });
      const pending = (async () => call(session.api, id, receive, strategy))();
      pending.catch(() => {});
      const end = await Promise.race([session.ended, cancelled, pending, allIn]);
      return { results, backend: end.backend, report, strategy };
    } catch (error) {
      throw reviveError(error);
    } finally {
      clearTimeout(watchdog);
      if (this.activeRun?.id === id) {
        this.activeRun = undefined;
        this.next();
      }
    }
  }

  /** Starts the waiting request of the highest priority (the oldest of equals) when none runs. */
  private next(): void {
    if (this.activeRun || this.waiting.length === 0) return;
    let best = 0;
    for (let i = 1; i < this.waiting.length; i++) {
      if (this.waiting[i].run.caller.priority > this.waiting[best].run.caller.priority) best = i;
    }
    const [chosen] = this.waiting.splice(best, 1);
    this.activeRun = chosen.run;
    chosen.go();
  }

  /** Solves one problem with its trace (the player's); throws its error re-created (a ScanInputError keeps its referenceType). */
  async run(problem: ScanProblem, strategy: Strategy): Promise<EngineRun> {
    const run = await this.runOne(problem, strategy, { trace: true });
    if (!run.trace) throw new Error("the engine returned no trace");
    return { ...run, trace: run.trace };
  }

  /** Solves one problem, its outputs only (no chunk intermediates); errors as `run`. */
  async runOutputs(problem: ScanProblem, strategy: Strategy, caller: Caller = ANY_CALLER): Promise<EngineResult> {
    return this.runOne(problem, strategy, { trace: false }, caller);
  }

  /**
   * runOutputs for a caller that asks again and again on the same input arrays (the playground's
   * γ edits): the worker keeps the arrays of the last such run, and a later run on the very same
   * arrays (keptInputs.ts) sends its parameters only; a worker started since (a fallback, a cancel)
   * is sent them again. The arrays are copied when sent, never transferred: the caller keeps them.
   * With `deliver`, the run (outputs and all) is posted there from the worker, arrays transferred,
   * and the one returned here has empty outputs: the playground worker gets the engine's outputs
   * without a hop through this thread, busy drawing the edit's frame when they come.
   */
  async runOutputsKept(
    problem: ScanProblem,
    strategy: Strategy,
    caller: Caller = ANY_CALLER,
    deliver?: MessagePort,
  ): Promise<EngineResult> {
    const { results } = await this.sendRequest<ProblemResult>(
      strategy,
      (api, id, receive, runs) => {
        // Decided as the request is posted: one that waited for its turn may find another worker.
        const kept = this.keptInputs;
        const port = deliver && Comlink.transfer(deliver, [deliver]);
        if (kept?.api === api && sameInputs(kept.problem, problem))
          return api.runProblems(id, [withoutInputs(problem)], runs, receive, { trace: false }, "kept", port);
        this.keptInputs = { api, problem };
        return api.runProblems(id, [problem], runs, receive, { trace: false }, "keep", port);
      },
      (runs) => [problemDeadlineMs(problem, runs, this.watchdogBaseMs)],
      undefined,
      caller,
    );
    return runOf(results[0]);
  }

  private async runOne(
    problem: ScanProblem,
    strategy: Strategy,
    options: RunOptions,
    caller: Caller = ANY_CALLER,
  ): Promise<EngineResult> {
    const { results } = await this.runProblems([problem], strategy, undefined, options, caller);
    return runOf(results[0]);
  }

  /**
   * Stops the run in flight, if any: it rejects with CancelledError at once. A problem already in
   * the worker cannot be interrupted (one tfjs kernel or GPU submission at a time), so the worker is
   * ended and a fresh one started on the same backend: the next run does not queue behind the
   * abandoned one. With a caller, only that caller's request is stopped: a waiting one leaves the
   * queue, and another caller's run goes on. Returns whether a request was cancelled.
   */
  cancel(caller?: Caller): boolean {
    if (caller) {
      const waiting = this.waiting.find((w) => w.run.caller.name === caller.name);
      if (waiting) {
        waiting.run.cancel(new CancelledError());
        this.waiting = this.waiting.filter((w) => w !== waiting);
        return true;
      }
      if (this.activeRun?.caller.name !== caller.name) return false;
    }
    if (!this.activeRun || !this.current) return false;
    this.activeRun.cancel(new CancelledError());
    this.activeRun = undefined;
    this.current.end(new CancelledError());
    this.current = this.disposed ? undefined : this.start(this.request);
    // Other callers' waiting requests run on the fresh worker.
    this.next();
    return true;
  }

  /** Injects a fault into the worker, to exercise the recovery (tests, debugging). */
  async simulateFault(fault: SimulatedFault): Promise<void> {
    const session = this.session();
    await Promise.race([session.ended, session.ready]);
    const call = (async () => session.api.simulateFault(fault))();
    await Promise.race([session.ended, call]);
  }

  /** Stops the worker; pending calls reject and later calls fail. */
  dispose(): void {
    this.disposed = true;
    for (const waiting of this.waiting) waiting.run.cancel(new SupersededError("the engine client was disposed"));
    this.waiting = [];
    this.current?.end(new SupersededError("the engine client was disposed"));
    this.current = undefined;
    this.listeners.clear();
  }

  private session(): Session {
    if (this.disposed) throw new Error("the engine client was disposed");
    if (!this.current) this.current = this.start(this.request);
    return this.current;
  }

  private start(request: BackendRequest): Session {
    const worker = this.createWorker();
    const api = Comlink.wrap<EngineWorkerApi>(worker);
    let reject!: (error: Error) => void;
    const ended = new Promise<never>((_, r) => {
      reject = r;
    });
    ended.catch(() => {});
    const onDeviceLost = Comlink.proxy((message: string) => this.died(session, message));
    const ready = api.init(request, onDeviceLost).then((report) => {
      session.report = report;
      this.failedStarts = 0;
      if (this.current === session) {
        this.emit({ type: "ready", report });
        if (report.fellBack) {
          this.emit({
            type: "notice",
            message: `${report.requested} is not available here, so the engine runs on ${report.backend} (${report.reason ?? "no reason given"})`,
          });
        }
      }
      return report;
    });
    let alive = true;
    const session: Session = {
      worker,
      api,
      request,
      ended,
      ready,
      end: (error) => {
        if (!alive) return;
        alive = false;
        reject(error);
        api[Comlink.releaseProxy]();
        worker.terminate();
      },
    };
    worker.addEventListener("error", (event) => {
      event.preventDefault();
      this.died(session, event.message || "the worker script failed to load or threw");
    });
    worker.addEventListener("messageerror", () => {
      this.died(session, "a message from the worker could not be read");
    });
    session.ready.catch((error) => this.died(session, `the worker could not start: ${messageOf(error)}`));
    return session;
  }

  /** Ends a session whose worker failed and, if it is the current one, restarts one backend down. */
  private died(session: Session, reason: string): void {
    if (this.current !== session) {
      session.end(new WorkerDiedError(reason));
      return;
    }
    const was: BackendName = session.report?.backend ?? (session.request === "auto" ? "webgpu" : session.request);
    const next = backendBelow(was) ?? was;
    this.failedStarts += session.report ? 0 : 1;
    const restart = this.failedStarts < MAX_FAILED_STARTS;
    const message = restart
      ? `The engine worker on ${was} stopped (${reason}); restarting it on ${next}.`
      : `The engine worker on ${was} stopped (${reason}); it failed to start ${this.failedStarts} times in a row, so it is not restarted.`;
    session.end(new WorkerDiedError(message));
    this.current = undefined;
    this.request = next;
    this.emit({ type: "notice", message });
    if (restart && !this.disposed) this.current = this.start(next);
  }

  private emit(event: EngineEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** A problem's run, or its error re-created. */
function runOf(result: ProblemResult | undefined): EngineResult {
  if (!result) throw new Error("the engine returned no result");
  if (!result.ok) throw errorFromFailure(result.error);
  return result.run;
}

/** The error a problem failed with, re-created on this side of the worker boundary. */
export function errorFromFailure(failure: ProblemFailure): Error {
  if (failure.referenceType !== undefined) return new ScanInputError(failure.message, failure.referenceType);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/** Comlink sends thrown errors as plain Errors; give the client's own kinds back their class. */
function reviveError(error: unknown): unknown {
  if (error instanceof SupersededError || error instanceof WorkerDiedError || !(error instanceof Error)) return error;
  if (error.name === "SupersededError") return new SupersededError(error.message);
  return error;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
