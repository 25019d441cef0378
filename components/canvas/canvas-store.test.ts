import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../runtime/workflow-spec/canonical-json";
import { copyFragment, parseFragment } from "./canvas-clipboard";
import { documentFromSpec, emptyDocument, toLayout, toSpec } from "./canvas-document";
import { createCanvasStore } from "./canvas-store";

const snapshot = (store: ReturnType<typeof createCanvasStore>) =>
  canonicalJson({ spec: toSpec(store.getState().document), layout: toLayout(store.getState().document) });

describe("canvas store undo/redo", () => {
  it("restores the exact exported spec and layout after add, move, connect and a property edit", () => {
    const store = createCanvasStore(emptyDocument("flow"));
    const states = [snapshot(store)];
    const input = store.getState().addNode("input", { x: 0, y: 0 });
    states.push(snapshot(store));
    const agent = store.getState().addNode("agent", { x: 300, y: 0 });
    states.push(snapshot(store));
    store.getState().dragNodes({ [agent]: { x: 310, y: 5 } });
    store.getState().dragNodes({ [agent]: { x: 320, y: 10 } });
    store.getState().endDrag();
    states.push(snapshot(store));
    expect(store.temporal.getState().pastStates).toHaveLength(3);
    store.getState().connect({ source: input, sourcePort: "out", target: agent, targetPort: "in" });
    states.push(snapshot(store));
    store.getState().updateNode(agent, { config: { name: "writer", instructions: "W" } }, "agent.instructions");
    store.getState().updateNode(agent, { config: { name: "writer", instructions: "Wr" } }, "agent.instructions");
    states.push(snapshot(store));
    expect(store.temporal.getState().pastStates).toHaveLength(5);

    for (let index = states.length - 2; index >= 0; index--) {
      store.temporal.getState().undo();
      expect(snapshot(store)).toBe(states[index]);
    }
    for (let index = 1; index < states.length; index++) {
      store.temporal.getState().redo();
      expect(snapshot(store)).toBe(states[index]);
    }
  });

  it("records nothing for selection or a drag that ends where it started, and deletes a node with its wires in one step", () => {
    const store = createCanvasStore(emptyDocument("flow"));
    const input = store.getState().addNode("input", { x: 0, y: 0 });
    const output = store.getState().addNode("output", { x: 200, y: 0 });
    store.getState().connect({ source: input, sourcePort: "out", target: output, targetPort: "in" });
    const before = store.temporal.getState().pastStates.length;
    store.getState().select({ nodes: [input], edges: [] });
    store.getState().dragNodes({ [input]: { x: 0, y: 0 } });
    store.getState().endDrag();
    expect(store.temporal.getState().pastStates.length).toBe(before);
    store.getState().deleteElements([input], []);
    expect(store.getState().document.edges).toEqual([]);
    expect(store.temporal.getState().pastStates.length).toBe(before + 1);
    store.temporal.getState().undo();
    expect(store.getState().document.edges).toHaveLength(1);
  });

  it("refuses edits to a read-only revision", () => {
    const store = createCanvasStore(emptyDocument("flow"));
    store.getState().replaceDocument(emptyDocument("old"), { readOnly: true, resetHistory: true });
    store.getState().addNode("input", { x: 0, y: 0 });
    expect(store.getState().document.nodes).toEqual([]);
  });
});

describe("copy and paste", () => {
  it("pastes copied nodes with fresh ids, the wires between them, and offset positions", () => {
    const document = documentFromSpec(
      {
        version: 1,
        name: "x",
        nodes: [
          { id: "input", type: "input", config: {} },
          { id: "agent-1", type: "agent", config: { name: "a", instructions: "" } },
          { id: "output", type: "output", config: {} },
        ],
        edges: [
          { id: "e1", source: "input", sourcePort: "out", target: "agent-1", targetPort: "in" },
          { id: "e2", source: "agent-1", sourcePort: "out", target: "output", targetPort: "in" },
        ],
      },
      { nodes: { input: { x: 0, y: 0 }, "agent-1": { x: 100, y: 50 }, output: { x: 300, y: 0 } } },
      "x",
    );
    const fragment = copyFragment(document, new Set(["agent-1", "output"]));
    expect(fragment?.edges).toHaveLength(1);
    const parsed = parseFragment(JSON.stringify(fragment));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const store = createCanvasStore(document);
    const added = store.getState().paste(parsed.fragment, { offset: { x: 40, y: 40 } });
    expect(added).toEqual(["agent-2", "output-1"]);
    const state = store.getState();
    expect(state.document.positions["agent-2"]).toEqual({ x: 140, y: 90 });
    expect(state.document.edges.at(-1)).toMatchObject({ source: "agent-2", target: "output-1" });
    expect(state.selection.nodes).toEqual(added);
  });

  it("says why clipboard text is not nodes", () => {
    const notJson = parseFragment("hello");
    expect(notJson.ok ? "" : notJson.message).toMatch(/not JSON/);
    const noNodes = parseFragment(JSON.stringify({ version: 1, nodes: [] }));
    expect(noNodes.ok ? "" : noNodes.message).toMatch(/nodes/);
  });
});

describe("canvas store during a drag", () => {
  it("only `dragging` changes until the drag ends: the document, nodes, settings and selection the properties panel reads keep their objects", () => {
    const store = createCanvasStore(emptyDocument("drag"));
    const agent = store.getState().addNode("agent", { x: 0, y: 0 });
    store.getState().select({ nodes: [agent], edges: [] });
    const read = () => ({ document: store.getState().document, nodes: store.getState().document.nodes, settings: store.getState().document.settings, selection: store.getState().selection });
    const before = read();
    let panelUpdates = 0;
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.document.nodes !== previous.document.nodes || state.document.settings !== previous.document.settings || state.selection !== previous.selection || state.readOnly !== previous.readOnly) panelUpdates += 1;
    });
    for (let step = 1; step <= 30; step++) store.getState().dragNodes({ [agent]: { x: step * 4, y: step * 2 } });
    const during = read();
    expect(during.document).toBe(before.document);
    expect(during.nodes).toBe(before.nodes);
    expect(during.settings).toBe(before.settings);
    expect(during.selection).toBe(before.selection);
    expect(panelUpdates).toBe(0);
    store.getState().endDrag();
    unsubscribe();
    expect(store.getState().document.positions[agent]).toEqual({ x: 120, y: 60 });
    expect(store.getState().document).not.toBe(before.document);
    expect(store.getState().document.nodes).toBe(before.nodes);
  });
});
