/** Moved to src/compute/run; this re-export serves RunSampleChart/RunSampleFields until the token charts' rewrite lands (then import compute/run directly and delete it). */
export type { Refusal } from "../../compute/run/runWorker";
