export * from "./bm25";
export * from "./memory-uri";
export * from "./memory-documents";
export * from "./memory-store";
export * from "./local-memory-store";
export * from "./memory-operations";
export * from "./memory-step";
