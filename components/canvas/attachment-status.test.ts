import { describe, expect, it } from "vitest";
import { withAttachmentStatus, type OverlayStatus } from "./attachment-status";

const nodes = [
  { id: "input", type: "input" as const },
  { id: "a1", type: "agent" as const },
  { id: "a2", type: "agent" as const },
  { id: "search", type: "tool" as const },
  { id: "shared", type: "tool" as const },
  { id: "notes", type: "memory" as const },
  { id: "idle", type: "tool" as const },
];
const edges = [
  { source: "input", target: "a1" },
  { source: "search", target: "a1" },
  { source: "notes", target: "a2" },
  { source: "shared", target: "a1" },
  { source: "shared", target: "a2" },
  { source: "idle", target: "a3" },
];

describe("attachment status", () => {
  it("a tool or memory node takes its agent's status; with two agents the running one wins; unwired or idle ones stay without", () => {
    const statuses = new Map<string, OverlayStatus>([
      ["input", { status: "succeeded" }],
      ["a1", { status: "succeeded" }],
      ["a2", { status: "running" }],
    ]);
    const result = withAttachmentStatus(statuses, nodes, edges);
    expect(result.get("search")).toEqual({ status: "succeeded", detail: "via a1" });
    expect(result.get("notes")).toEqual({ status: "running", detail: "via a2" });
    expect(result.get("shared")).toEqual({ status: "running", detail: "via a2" });
    expect(result.has("idle")).toBe(false);
    expect(result.get("a2")).toEqual({ status: "running" });
    expect(result.get("input")).toEqual({ status: "succeeded" });
  });

  it("a failed agent marks its tools failed without copying the error; no statuses: the same map back", () => {
    const failed = withAttachmentStatus(new Map([["a1", { status: "failed" as const, detail: "boom" }]]), nodes, edges);
    expect(failed.get("search")).toEqual({ status: "failed", detail: "via a1" });
    const none = new Map<string, OverlayStatus>();
    expect(withAttachmentStatus(none, nodes, edges)).toBe(none);
  });
});
