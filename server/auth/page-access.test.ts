import { describe, expect, it } from "vitest";
import { isPublicPage, pageNeedsPrincipal, safeNextPath, signInPathFor } from "./page-access";
import { loopbackPolicy, signInPolicy } from "./testing/policies";

describe("page access", () => {
  it("needs a principal for every page but sign-in, setup and the icon, and only where sign-in is required", () => {
    for (const page of ["/", "/runs/run_1", "/settings", "/workflows/wf_1", "/sign-in/../settings", "/setupx"]) {
      expect(pageNeedsPrincipal(signInPolicy(), page), page).toBe(true);
      expect(pageNeedsPrincipal(loopbackPolicy(), page), page).toBe(false);
    }
    expect(["/sign-in", "/sign-in/", "/setup", "/icon.svg"].every(isPublicPage)).toBe(true);
  });

  it("lets a share page through without sign-in (its token is its credential), and nothing below or beside it", () => {
    expect(pageNeedsPrincipal(signInPolicy(), "/share/AbC_-123")).toBe(false);
    expect(pageNeedsPrincipal(signInPolicy(), "/share/AbC_-123/")).toBe(false);
    for (const page of ["/share", "/share/", "/share/x/settings", "/shared/x", "/runs/share/x"]) {
      expect(pageNeedsPrincipal(signInPolicy(), page), page).toBe(true);
    }
  });

  it("keeps `next` on this studio: other origins, protocol-relative and backslash paths become /", () => {
    expect(safeNextPath("/runs/run_1?tab=graph")).toBe("/runs/run_1?tab=graph");
    for (const unsafe of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)", "runs", "/x\nLocation: y", "/sign-in", null, undefined]) {
      expect(safeNextPath(unsafe), String(unsafe)).toBe("/");
    }
    expect(signInPathFor("/runs/run_1?tab=graph")).toBe("/sign-in?next=%2Fruns%2Frun_1%3Ftab%3Dgraph");
    expect(signInPathFor("/")).toBe("/sign-in");
  });
});
