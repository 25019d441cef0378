/** Files: persisted sessions (reference dialect 1, Rath dialect 2), lineage export and run bundles. */
export * from "./records";
export * from "./jsonl-lines";
export * from "./dialect";
export * from "./secrets";
export * from "./json-text";
export * from "./session-records";
export * from "./session-loader";
export * from "./session-writer";
export * from "./lineage-export";
export * from "./bundle-records";
export * from "./bundle-writer";
export * from "./bundle-reader";
