/**
 * Run files in the browser, on the production build: files the Python reference implementation wrote (its own
 * fixtures, runtime/files/fixtures/reference) chosen with the button or dropped on the home page open as a
 * read-only run whose graph has their sessions; a malformed file is refused with its name and line and nothing is
 * stored.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { sessionGraph, trpcQuery } from "./run-view-fixtures";

const FIXTURES = path.join(process.cwd(), "runtime", "files", "fixtures", "reference");

function fixture(name: string): { name: string; mimeType: string; buffer: Buffer } {
  return { name, mimeType: "application/octet-stream", buffer: readFileSync(path.join(FIXTURES, name)) };
}

function headerId(name: string): string {
  return (JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8").split("\n")[0] as string) as { id: string }).id;
}

async function runCount(page: Page): Promise<number> {
  const { runs } = await trpcQuery<{ runs: unknown[] }>(page.request, "runs.list", { limit: 200 });
  return runs.length;
}

test("choosing reference session files opens them as a read-only run with their sessions", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("run-drop-zone")).toBeVisible();
  expect((await new AxeBuilder({ page }).include('[data-testid="run-file-drop"]').analyze()).violations.filter((violation) => ["serious", "critical"].includes(violation.impact ?? ""))).toEqual([]);
  await page.getByTestId("run-file-input").setInputFiles([fixture("unplaced.jsonl"), fixture("to-local-spec.jsonl")]);
  await page.waitForURL(/\/runs\/run_[a-z0-9]+$/);
  const runId = (await page.getByTestId("run-page").getAttribute("data-run-id")) as string;
  for (const name of ["unplaced.jsonl", "to-local-spec.jsonl"]) {
    await expect(page.locator(`[data-testid="graph-node"][data-session-id="${headerId(name)}"]`), name).toBeVisible();
  }
  const graph = await sessionGraph(page.request, runId);
  expect(graph.sessions.map((session) => session.id).sort()).toEqual([headerId("unplaced.jsonl"), headerId("to-local-spec.jsonl")].sort());
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  await expect(page.getByTestId("run-workflow-link")).toContainText("Imported: unplaced.jsonl and 1 more");
  // The timeline says why there are no node executions and lists what the files do hold: their sessions, in order,
  // linked with the graph (a click selects the session).
  await expect(page.getByTestId("timeline-empty")).toHaveCount(0);
  await expect(page.getByTestId("timeline-imported")).toContainText("unplaced.jsonl and 1 more");
  await expect(page.getByTestId("timeline-imported")).toContainText("no node executions");
  const rows = page.getByTestId("timeline-session");
  await expect(rows).toHaveCount(2);
  expect((await rows.evaluateAll((elements) => elements.map((element) => element.getAttribute("data-session-id")))).sort()).toEqual(graph.sessions.map((session) => session.id).sort());
  const second = graph.sessions[1]?.id as string;
  await page.locator(`[data-testid="timeline-session"][data-session-id="${second}"]`).click();
  await expect(page).toHaveURL(new RegExp(`[?&]session=${second}`));
  await expect(page.locator(`[data-testid="timeline-session"][data-session-id="${second}"]`)).toHaveAttribute("data-highlighted", "true");
});

test("a file dropped on the home page opens; a parent no file holds is an empty placeholder", async ({ page }) => {
  await page.goto("/");
  const file = readFileSync(path.join(FIXTURES, "memory-injected.jsonl"), "utf8");
  const transfer = await page.evaluateHandle((text) => {
    const data = new DataTransfer();
    data.items.add(new File([text], "memory-injected.jsonl"));
    return data;
  }, file);
  // A dragenter dispatched before the page has hydrated reaches no listener: dispatched again until the overlay shows.
  await expect(async () => {
    await page.getByTestId("home").dispatchEvent("dragenter", { dataTransfer: transfer });
    await expect(page.getByTestId("run-drop-overlay")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId("home").dispatchEvent("drop", { dataTransfer: transfer });
  await page.waitForURL(/\/runs\/run_[a-z0-9]+$/);
  const runId = (await page.getByTestId("run-page").getAttribute("data-run-id")) as string;
  const graph = await sessionGraph(page.request, runId);
  const own = graph.sessions.find((session) => session.id === headerId("memory-injected.jsonl"));
  expect(own?.chunkCount).toBeGreaterThan(0);
  expect(graph.sessions.filter((session) => session.chunkCount === 0).map((session) => session.id)).toEqual(own?.lineage.parent_session_ids);
});

test("a malformed file is refused with its name and line, and nothing is stored", async ({ page }) => {
  await page.goto("/");
  const before = await runCount(page);
  const lines = readFileSync(path.join(FIXTURES, "unplaced.jsonl"), "utf8").split("\n");
  lines[1] = '{"record_type": "chunk", "index": 0, "kind": "user", "payload": ';
  await page.getByTestId("run-file-input").setInputFiles([{ name: "broken-session.jsonl", mimeType: "application/octet-stream", buffer: Buffer.from(lines.join("\n")) }]);
  const message = page.getByTestId("run-import-error-message");
  await expect(message).toContainText("broken-session.jsonl:2:");
  await expect(page.getByTestId("run-import-error")).toContainText("Nothing was imported");
  expect(page.url()).not.toContain("/runs/");
  expect(await runCount(page)).toBe(before);
});

