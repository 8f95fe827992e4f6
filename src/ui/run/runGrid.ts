/** Moved to src/compute/run; this re-export serves RunSampleChart/RunSampleFields until the token charts' rewrite lands (then import compute/run directly and delete it). */
export type { RunGrid } from "../../compute/run/runGrid";
