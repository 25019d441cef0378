/** Agents, workflows, selectors and compressors: the components that implement `forward(session)`. */
export * from "./agent";
export * from "./announce";
export * from "./complete-with-events";
export * from "./compressor";
export * from "./prompts";
export * from "./selector";
export * from "./session-messages";
export * from "./token-budget";
export * from "./workflow";
