export * from "./glibcPowf";
export * from "./sleefPowf";
export * from "./torchCpuLayout";
export * from "./torchPowTables";
