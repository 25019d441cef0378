/** The spec module (runtime/workflow-spec, browser-safe) plus what only the server does with it: hash and compile. */
export * from "../../../runtime/workflow-spec";
export * from "./compile";
export * from "./plan";
export * from "./spec-hash";
