/**
 * The engine's own failures, as opposed to core's ScanInputError (input the reference rejects).
 * slime itself would accept these problems: they fail because of the device, so they carry no
 * Python exception type and never match a case's `expect_error`. Both cross the worker boundary
 * as `{ name, message }` and reach the caller as a failed case whose detail is the message.
 */

/** The problem needs a tensor (or a dispatch) larger than the backend can hold; nothing was allocated. */
export class EngineLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineLimitError";
  }
}

/** The backend returned results that cannot be right (wrong size, NaN, zeros): a silent device failure. */
export class EngineOutputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EngineOutputError";
  }
}
