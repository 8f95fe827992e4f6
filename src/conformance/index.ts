export * from "./caseProblem";
export * from "./checkCase";
export * from "./coreSolvers";
export * from "./outputs";
export * from "./tolerance";
