export * from "./conventionBounds";
export * from "./runConvention";
export * from "./segments";
export * from "./tokenRewards";
export * from "./types";
export * from "./whiten";
