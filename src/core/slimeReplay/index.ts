export * from "./klReplay";
export * from "./replayBounds";
export * from "./replayDump";
export * from "./replayReference";
export * from "./replayVerdict";
export * from "./settings";
export * from "./slimeWhitenBound";
