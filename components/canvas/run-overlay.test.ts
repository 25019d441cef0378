import { describe, expect, it } from "vitest";
import { applyOverlayEvents, initialOverlay, type OverlayEvent } from "./run-overlay";

const event = (seq: number, type: string, payload: Record<string, unknown> = {}): OverlayEvent => ({ seq, type, payload });

describe("run overlay", () => {
  it("follows a run: entry queued, running, succeeded, next running, failure on its node", () => {
    let state = initialOverlay(["input"]);
    expect(state.nodes.get("input")?.status).toBe("queued");
    state = applyOverlayEvents(state, [event(1, "run.created"), event(2, "run.state.changed", { from: "queued", to: "running" })]);
    expect(state.nodes.get("input")?.status).toBe("running");
    state = applyOverlayEvents(state, [event(3, "run.step.completed", { node_id: "input", next: [{ node_id: "agent" }, { node_id: "other" }] })]);
    expect(state.nodes.get("input")?.status).toBe("succeeded");
    expect(state.nodes.get("agent")?.status).toBe("running");
    expect(state.nodes.get("other")?.status).toBe("queued");
    state = applyOverlayEvents(state, [event(4, "run.step.attempt.failed", { node_id: "agent", attempt: 1, message: "timeout" })]);
    expect(state.nodes.get("agent")).toEqual({ status: "running", detail: "attempt 1 failed: timeout" });
    state = applyOverlayEvents(state, [event(5, "run.execution.failed", { node_id: "agent", code: "tool_error", message: "boom" }), event(6, "run.state.changed", { to: "failed" })]);
    expect(state.nodes.get("agent")).toEqual({ status: "failed", detail: "boom" });
    expect(state.nodes.has("other")).toBe(false);
    expect(state.runStatus).toBe("failed");
  });

  it("marks an approval waiting, ignores events already seen, and keeps the output", () => {
    let state = applyOverlayEvents(initialOverlay(["input"]), [event(1, "run.state.changed", { to: "running" }), event(2, "run.step.completed", { node_id: "review", next: [], waiting: true }), event(3, "run.interrupt.created", { node_id: "review" })]);
    expect(state.nodes.get("review")?.status).toBe("waiting");
    const again = applyOverlayEvents(state, [event(2, "run.step.completed", { node_id: "review", next: [] })]);
    expect(again.nodes.get("review")?.status).toBe("waiting");
    state = applyOverlayEvents(state, [event(4, "run.execution.completed", { text: "done!" })]);
    expect(state.output).toBe("done!");
  });
});
