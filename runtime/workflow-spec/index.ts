/**
 * The workflow spec module: the declarative workflow the canvas draws and the engine compiles, its node configs,
 * typed ports, problems and validation. Browser-safe (no Node built-ins), so the IDE and the server import the
 * same values; hashing and compilation live in server/engine/spec.
 */
export * from "./builtin-tool-names";
export * from "./canonical-json";
export * from "./connection-rules";
export * from "./graph-analysis";
export * from "./node-configs";
export * from "./ports";
export * from "./problems";
export * from "./validate";
export * from "./workflow-layout";
export * from "./workflow-spec";
