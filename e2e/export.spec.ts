/**
 * The run view's Export dialog on the production build, on the seeded Fork/merge research template (demo provider):
 * each download is triggered in the browser and its file read back — the Rath bundle opens again through the home
 * page into a run with the same sessions; the reference dialect's lineage export and session files (one by one, and
 * all in one .tar read by the system's tar) parse line by line and open again too; the OTLP/JSON trace has the run's
 * span. A provider key saved in settings and typed into the run's input appears in none of them ([REDACTED] does).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Download, type Locator, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startRunFromHome } from "./helpers";
import { sessionGraph, trpcMutation, type GraphSession } from "./run-view-fixtures";

const CANARY = `sk-e2e-export-canary-${Date.now()}-abcdefgh`;

interface SavedFile {
  name: string;
  text: string;
}

/** Clicks `button` and returns the download it starts. */
async function downloadOf(page: Page, button: Locator): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
  return download;
}

/** Clicks `button` and reads the file it downloads. */
async function downloaded(page: Page, button: Locator): Promise<SavedFile> {
  const download = await downloadOf(page, button);
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), "utf8") };
}

/** Clicks `button`, saves the .tar it downloads, and reads the files under `directory` with the system's tar. */
async function untar(page: Page, button: Locator, directory: string): Promise<SavedFile[]> {
  const download = await downloadOf(page, button);
  expect(download.suggestedFilename()).toBe(`${directory}.tar`);
  const target = await mkdtemp(path.join(os.tmpdir(), "rath-export-"));
  try {
    execFileSync("tar", ["-xf", await download.path(), "-C", target]);
    const names = await readdir(path.join(target, directory));
    return Promise.all(names.map(async (name) => ({ name, text: await readFile(path.join(target, directory, name), "utf8") })));
  } finally {
    await rm(target, { recursive: true, force: true });
  }
}

function jsonLines(file: SavedFile): Array<Record<string, unknown>> {
  return file.text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function expectNoSecret(file: SavedFile): void {
  expect(file.text, file.name).not.toContain(CANARY);
  expect(file.text, file.name).not.toMatch(/sk-e2e/);
}

/** Opens `files` through the home page's file picker; returns the imported run's sessions. */
async function reimport(page: Page, files: readonly SavedFile[]): Promise<GraphSession[]> {
  await page.goto("/");
  await page.getByTestId("run-file-input").setInputFiles(files.map((file) => ({ name: file.name, mimeType: "application/octet-stream", buffer: Buffer.from(file.text, "utf8") })));
  await page.waitForURL(/\/runs\/run_[a-z0-9]+$/);
  const runId = (await page.getByTestId("run-page").getAttribute("data-run-id")) as string;
  return (await sessionGraph(page.request, runId)).sessions;
}

const chunkCounts = (sessions: readonly GraphSession[]) => sessions.map((session) => session.chunkCount).sort((a, b) => a - b);

test("Export: bundle, reference files with lineage, and OTLP trace download, parse, reopen, and carry no secret", async ({ page }) => {
  test.setTimeout(180_000);
  // A saved key is a configured secret: the store replaces it wherever a run would record it.
  await trpcMutation(page.request, "settings.providers.upsert", { name: "export-canary", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", model: "none", apiKey: CANARY });
  const runId = await startRunFromHome(page, "Fork/merge research", `Compare SQLite and PostgreSQL. Key: ${CANARY}`);
  await expect(page.getByTestId("run-status")).toHaveAttribute("data-status", "succeeded");
  const { sessions } = await sessionGraph(page.request, runId);
  expect(sessions.length).toBeGreaterThan(5);

  await page.getByTestId("export-button").click();
  const dialog = page.getByTestId("export-dialog");
  await expect(dialog).toBeVisible();
  const axe = await new AxeBuilder({ page }).include('[data-testid="export-dialog"]').analyze();
  expect(axe.violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical")).toEqual([]);

  const bundle = await downloaded(page, dialog.getByTestId("export-bundle-action"));
  expect(bundle.name).toBe(`run-${runId}.jsonl`);
  const bundleLines = jsonLines(bundle);
  expect(bundleLines.length).toBeGreaterThan(sessions.length);
  expectNoSecret(bundle);
  expect(bundle.text).toContain("[REDACTED]");

  await dialog.getByTestId("export-reference-action").click();
  const fileRows = dialog.getByTestId("export-file");
  await expect(fileRows).toHaveCount(sessions.length + 1);
  const lineage = await downloaded(page, fileRows.first().getByTestId("export-file-download"));
  expect(lineage.name).toBe(`run-${runId}-lineage.jsonl`);
  const lineageLines = jsonLines(lineage);
  expect(lineageLines.map((line) => line.id).sort()).toEqual(sessions.map((session) => session.id).sort());
  for (const line of lineageLines) expect(sessions.find((session) => session.id === line.id)?.chunkCount).toBe(line.chunk_count);
  const sessionFile = await downloaded(page, fileRows.nth(1).getByTestId("export-file-download"));
  expect(sessions.map((session) => `${session.id}.jsonl`)).toContain(sessionFile.name);
  expect(jsonLines(sessionFile)[0]?.id).toBe(sessionFile.name.replace(/\.jsonl$/, ""));
  // "Download all": one .tar (any tar reads it) holding the lineage export and every session file.
  const reference = await untar(page, dialog.getByTestId("export-reference-all"), `run-${runId}-reference`);
  expect(reference.map((file) => file.name).sort()).toEqual([lineage.name, ...sessions.map((session) => `${session.id}.jsonl`)].sort());
  expect(reference.find((file) => file.name === sessionFile.name)?.text).toBe(sessionFile.text);
  for (const file of reference) {
    expectNoSecret(file);
    expect(jsonLines(file).length).toBeGreaterThan(0);
  }

  const trace = await downloaded(page, dialog.getByTestId("export-trace-action"));
  expect(trace.name).toBe(`run-${runId}-trace.json`);
  const otlp = JSON.parse(trace.text) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }> };
  const spanNames = otlp.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => span.name)));
  expect(spanNames).toContain("invoke_workflow Fork/merge research");
  expect(spanNames).toEqual(expect.arrayContaining(["invoke_agent advocate", "invoke_agent critic", "invoke_agent editor"]));
  expect(spanNames.filter((name) => name.startsWith("chat ")).length).toBeGreaterThanOrEqual(3);
  expectNoSecret(trace);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  // The bundle opens again as a run with the same sessions; so do the reference files.
  expect(chunkCounts(await reimport(page, [bundle]))).toEqual(chunkCounts(sessions));
  expect(chunkCounts(await reimport(page, reference))).toEqual(chunkCounts(sessions));
});
