export * from "./code-tool";
export * from "./execute-node";
export * from "./node-env";
export * from "./sequential-runner";
