import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { requestSignal } from "./request-signal";

describe("requestSignal", () => {
  it("aborts with the caller's signal and its reason while linked", () => {
    const parent = new AbortController();
    const scope = requestSignal(parent.signal);
    expect(scope.signal?.aborted).toBe(false);
    parent.abort("stop");
    expect(scope.signal?.aborted).toBe(true);
    expect(scope.signal?.reason).toBe("stop");
  });

  it("is unlinked by release: the caller's signal keeps no listener and a later abort does not reach it", () => {
    const parent = new AbortController();
    const scopes = Array.from({ length: 20 }, () => requestSignal(parent.signal));
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(20);
    for (const scope of scopes) scope.release();
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
    parent.abort();
    expect(scopes[0]?.signal?.aborted).toBe(false);
  });

  it("starts aborted under an aborted signal, and is absent without one", () => {
    const parent = new AbortController();
    parent.abort("gone");
    expect(requestSignal(parent.signal).signal?.reason).toBe("gone");
    expect(requestSignal(undefined).signal).toBeUndefined();
  });
});
