import { describe, expect, it } from "vitest";
import type { SessionChunk } from "../trpc/router-types";
import { sameChunkRow, type ChunkItemProps } from "./chunk-item";

const chunk = { kind: "assistant", payload: { content: "**Step 1 done.**" }, meta: {} } as unknown as SessionChunk["chunk"];
const onSelect = (): void => undefined;
const row = (view: SessionChunk, selected = false, select = onSelect): ChunkItemProps => ({ view, selected, onSelect: select });

describe("chunk rows", () => {
  it("a row showing the same stored chunk as another session's view does not render again", () => {
    const parentView: SessionChunk = { sessionId: "s1", index: 3, chunk };
    const childView: SessionChunk = { ...parentView, sessionId: "s2" };
    expect(sameChunkRow(row(parentView), row(childView))).toBe(true);
  });

  it("renders again for another chunk, index, selection or callback", () => {
    const view: SessionChunk = { sessionId: "s1", index: 3, chunk };
    expect(sameChunkRow(row(view), row({ ...view, chunk: { ...chunk } }))).toBe(false);
    expect(sameChunkRow(row(view), row({ ...view, index: 4 }))).toBe(false);
    expect(sameChunkRow(row(view), row(view, true))).toBe(false);
    expect(sameChunkRow(row(view), row(view, false, () => undefined))).toBe(false);
  });
});
