/** The tfjs engine asked for by `scanlab check --engine tfjs` could not start: one line, status 2. */
export class EngineStartError extends Error {}
