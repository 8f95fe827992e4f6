/**
 * slime's debug dumps, for the CLI and the run view:
 *   readTensorFile(bytes, fileName)   → the object tree of a .pt / .npz / .safetensors file
 *   understandDump(tree, fileName)    → {kind, samples[], settingsGuess, lanes?, notes}
 *   pairDumps(train, rollout, name)   → train samples with their rollout Sample's status and text
 *   replayDump(dump, settings)        → per sample {reference, bounds, advantages/returns/kl verdicts, passed}
 *   judgeDumpRewards(dump, settings)  → the stored rewards against group normalisation of the raw rewards
 *   searchSettings(dump, base)        → which estimator / normalisation / KL formula reproduce it
 *   inferDumpSettings(dump)           → the settings read off the dump's own numbers, with uncertainties
 *   mergeRankDumps(files)             → one step of slime's first format (`{id}_{rank}.pt` per rank) as a train dump
 *   groupRankFiles(paths)             → a folder's per-rank files grouped by step, by name
 *   planRun(paths)                    → a run directory's steps (train + rollout dump by rollout id), every other file with why
 *   summariseStep(dump, check)        → one step's row: samples, tokens, verdict, worst gap/bound, reward, KL, lengths
 * All pure and synchronous on typed arrays (no DOM, no Node): they run in a worker as they are.
 */
export * from "../tensorFiles/readTensorFile";
export * from "../tensorFiles/tensorTypes";
export * from "./carriedSettings";
export * from "./checkDump";
export * from "./diagnoseDump";
export * from "./dumpCaseExport";
export * from "./dumpTypes";
export * from "./openDump";
export * from "./promptGroupRecovery";
export * from "./rankDumps";
export * from "./rankFiles";
export * from "./readRunStep";
export * from "./replayDump";
export * from "./runDirectory";
export * from "./stepSummary";
export * from "./understandDump";
