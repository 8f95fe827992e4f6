export * from "./cpWhiten";
export * from "./gather";
export * from "./layout";
export * from "./localLength";
export * from "./ppoByRank";
export * from "./reinforcePPByRank";
export * from "./scanByRank";
