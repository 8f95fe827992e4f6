export * from "./caseBounds";
export * from "./caseConsistency";
export * from "./caseProblem";
export * from "./checkCase";
export * from "./coreSolvers";
export * from "./nothingToCheck";
export * from "./outputs";
export * from "./verdictWords";
