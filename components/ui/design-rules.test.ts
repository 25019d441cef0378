import { describe, expect, it } from "vitest";
import { isActiveNavItem, NAV_ITEMS } from "../shell/nav-items";
import { isDark, nextThemeChoice, parseThemeChoice } from "../shell/theme";
import { lineageEdgeKind, lineageStyle, LINEAGE_STYLES } from "./lineage-style";
import { clampPanelSize, panelSizeAfterKey, parseStoredPanelSize } from "./panel-size";
import { statusStyle } from "./status-style";

describe("theme choice", () => {
  it("parses stored values, defaulting to system", () => {
    expect(parseThemeChoice("dark")).toBe("dark");
    expect(parseThemeChoice("light")).toBe("light");
    expect(parseThemeChoice(null)).toBe("system");
    expect(parseThemeChoice("purple")).toBe("system");
  });
  it("is dark for dark, never for light, and like the OS for system", () => {
    expect(isDark("dark", false)).toBe(true);
    expect(isDark("light", true)).toBe(false);
    expect(isDark("system", true)).toBe(true);
    expect(isDark("system", false)).toBe(false);
  });
  it("cycles system → light → dark → system", () => {
    expect([nextThemeChoice("system"), nextThemeChoice("light"), nextThemeChoice("dark")]).toEqual(["light", "dark", "system"]);
  });
});

describe("panel sizes", () => {
  const limits = { initial: 280, min: 200, max: 480 };
  it("clamps to the limits and rejects garbage from storage", () => {
    expect(clampPanelSize(100, limits)).toBe(200);
    expect(clampPanelSize(900, limits)).toBe(480);
    expect(clampPanelSize(300.6, limits)).toBe(301);
    expect(parseStoredPanelSize("abc", limits)).toBe(280);
    expect(parseStoredPanelSize(null, limits)).toBe(280);
    expect(parseStoredPanelSize("9999", limits)).toBe(480);
  });
  it("grows a left panel with ArrowRight and a right panel with ArrowLeft; Shift takes large steps", () => {
    expect(panelSizeAfterKey(280, "ArrowRight", 1, limits, false)).toBe(296);
    expect(panelSizeAfterKey(280, "ArrowLeft", -1, limits, false)).toBe(296);
    expect(panelSizeAfterKey(280, "ArrowLeft", 1, limits, true)).toBe(216);
    expect(panelSizeAfterKey(280, "End", 1, limits, false)).toBe(480);
    expect(panelSizeAfterKey(280, "Enter", 1, limits, false)).toBeUndefined();
  });
});

describe("navigation", () => {
  it("marks Workflows active on the home page and in the editor, not on a run page", () => {
    const workflows = NAV_ITEMS.find((item) => item.label === "Workflows");
    expect(workflows).toBeDefined();
    if (workflows === undefined) return;
    expect(isActiveNavItem(workflows, "/")).toBe(true);
    expect(isActiveNavItem(workflows, "/workflows/wf_1")).toBe(true);
    expect(isActiveNavItem(workflows, "/runs/run_1")).toBe(false);
  });
});

describe("status and lineage styles", () => {
  it("gives every run status its own label and an icon, and unknown statuses their own name", () => {
    for (const status of ["queued", "running", "waiting", "needs_review", "succeeded", "failed", "cancelled", "timed_out", "crashed"]) {
      const style = statusStyle(status);
      expect(style.label.length).toBeGreaterThan(0);
      expect(style.icon).toBeDefined();
      expect(style.color).toMatch(/^var\(--rath-status-/);
    }
    expect(statusStyle("needs_review").label).toBe("needs review");
    expect(statusStyle("half_done").label).toBe("half done");
  });
  it("maps lineage kinds to edge kinds and gives each kind a distinct stroke or dash", () => {
    expect(lineageEdgeKind("op_fork")).toBe("fork");
    expect(lineageEdgeKind("op_merge")).toBe("merge");
    expect(lineageEdgeKind("op_session_loop")).toBe("loop");
    expect(lineageEdgeKind("op_session_compress")).toBe("compress");
    expect(lineageEdgeKind("op_detach")).toBe("detach");
    expect(lineageEdgeKind("leaf_user")).toBe("create");
    const looks = LINEAGE_STYLES.map((style) => `${style.stroke}|${style.dash ?? "solid"}`);
    expect(new Set(looks).size).toBe(LINEAGE_STYLES.length);
    expect(lineageStyle("merge").label).toBe("merge");
  });
});
