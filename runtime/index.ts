/**
 * The public surface of the Rath runtime (the SDK). Everything a program needs to build, run and inspect
 * Session workflows is exported here; internal helpers (wire formats, redaction, process spawning) are not.
 */
export * from "./errors";
export * from "./ids";
export * from "./events";
export * from "./context";

export * from "./session/chunk";
export * from "./session/chunk-list";
export * from "./session/lineage";
export * from "./session/usage";
export * from "./session/session";
export * from "./session/graph";

export * from "./providers";

export * from "./sandbox/handle";
export * from "./sandbox/backend";
export * from "./sandbox/backends";
export * from "./sandbox/bind";
export * from "./sandbox/workspace-handle";
export * from "./sandbox/local-backend";
export * from "./sandbox/bwrap-backend";

export * from "./tools/types";
export * from "./tools/define-tool";
export * from "./tools/registry";
export * from "./tools/policy";
export * from "./tools/effects";
export * from "./tools/dispatch";
export * from "./tools/builtins";

export * from "./mcp/server-config";
export * from "./mcp/connection";
export * from "./mcp/connection-pool";
export * from "./mcp/run-pool";
export * from "./mcp/load-tools";
export * from "./mcp/tool-result";

export * from "./memory";
export * from "./agent";
export * from "./files";

export * from "./testing/scripted-provider";
export * from "./providers/demo-provider";
