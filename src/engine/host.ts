/**
 * The engine for a worker that hosts it itself, the one way into the engine besides its client
 * (client.ts): the bench worker (compute/bench/benchWorker.ts) brings up a backend and times
 * runProblem in its own thread, since a benchmark times the engine, not the messages around it.
 */
export { initBackend, probeWebGPU } from "./backends";
export { runProblem } from "./runProblem";
