/**
 * `npm run bench:canvas`: the workflow editor in Chromium (Playwright) against the production build, with a
 * 300-node, 400-edge workflow (canvas-workflow.ts). Prints a table: time to the canvas's first render (navigation
 * start to the first node painted, and to every node in view painted), p50/p95 frame time while dragging a node
 * and while panning (requestAnimationFrame intervals recorded in the page), and ELK auto-layout time in its web
 * worker (the worker's own clock) plus the wall time until the new positions are applied. Auto-layout is clicked as
 * a user would: once the layout worker is warm (the editor warms it up when a big workflow opens) and the view has
 * settled after the previous click (its re-render and 300 ms fit animation would otherwise share the 2 cores with
 * the next layout).
 *
 * Needs `npm run build` first. Starts `node bin/rath-serve.mjs start` on BENCH_PORT (default 3105) with a fresh
 * SQLite file, or uses BENCH_BASE_URL when given. `--json` prints one JSON line per measure; `--loads N` (default 5)
 * and `--layouts N` (default 3) set the repetitions, to keep a run short on a shared machine.
 */
import { chromium, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchWorkflow } from "./canvas-workflow";

const TARGETS = { first_render_ms: 1500, drag_frame_p95_ms: 20, pan_frame_p95_ms: 20, elk_layout_ms: 1000 } as const;

/** The value of `--name N` on the command line, or `fallback`. */
function countOption(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? fallback : Number(process.argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of 1 or more`);
  return value;
}

interface Row {
  name: string;
  what: string;
  value: number;
  samples: number[];
  target?: number;
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] as number;
}

function median(values: readonly number[]): number {
  return percentile(values, 0.5);
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the server did not answer at ${url} within ${timeoutMs} ms`);
}

async function startServer(): Promise<{ baseUrl: string; stop: () => void }> {
  if (process.env.BENCH_BASE_URL) return { baseUrl: process.env.BENCH_BASE_URL, stop: () => undefined };
  if (!existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const port = Number(process.env.BENCH_PORT ?? 3105);
  const directory = mkdtempSync(path.join(os.tmpdir(), "rath-bench-canvas-"));
  const child: ChildProcess = spawn(process.execPath, ["bin/rath-serve.mjs", "start", "--port", String(port)], {
    env: { ...process.env, RATH_DB_PATH: path.join(directory, "studio.db"), RATH_HOST: "127.0.0.1", RATH_AUTH: "", DATABASE_URL: "", NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseUrl}/api/trpc/workflows.list`, 60_000);
  return {
    baseUrl,
    stop: () => {
      child.kill("SIGTERM");
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function createBenchWorkflow(baseUrl: string): Promise<string> {
  const { spec, layout } = benchWorkflow();
  const response = await fetch(`${baseUrl}/api/trpc/workflows.create`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: spec.name, spec, layout }),
  });
  if (!response.ok) throw new Error(`workflows.create: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { result: { data: { workflow: { id: string } } } }).result.data.workflow.id;
}

/** Installed before the page's own scripts: records when the first node and when N nodes were first in the DOM. */
const FIRST_RENDER_PROBE = `
  window.__canvasBench = { first: null, settled: null };
  const poll = () => {
    const count = document.querySelectorAll('[data-testid="canvas-node"]').length;
    if (count > 0 && window.__canvasBench.first === null) window.__canvasBench.first = performance.now();
    if (count > 0 && window.__canvasBench.settled === null && document.querySelector('.react-flow__viewport') && count === window.__canvasBench.lastCount) window.__canvasBench.settled = performance.now();
    window.__canvasBench.lastCount = count;
    if (window.__canvasBench.settled === null) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
`;

async function firstRender(page: Page, url: string): Promise<{ first: number; settled: number }> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(() => (window as unknown as { __canvasBench: { settled: number | null } }).__canvasBench.settled !== null, undefined, { timeout: 60_000 });
  return page.evaluate(() => {
    const bench = (window as unknown as { __canvasBench: { first: number; settled: number } }).__canvasBench;
    return { first: bench.first, settled: bench.settled };
  });
}

/** Waits until the canvas's view stands still over two frames (no fit animating, nothing moving it). */
async function waitForSettledView(page: Page): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const settled = await page.evaluate(async () => {
      const viewport = document.querySelector<HTMLElement>(".react-flow__viewport");
      const before = viewport?.style.transform;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return viewport !== null && viewport.style.transform === before;
    });
    if (settled) return;
  }
  throw new Error("the canvas view did not settle");
}

async function startFrameRecorder(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = { frames: [] as number[], last: performance.now(), on: true };
    (window as unknown as { __frames: typeof state }).__frames = state;
    const tick = (now: number) => {
      if (!state.on) return;
      state.frames.push(now - state.last);
      state.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame((now) => {
      state.last = now;
      requestAnimationFrame(tick);
    });
  });
}

async function stopFrameRecorder(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const state = (window as unknown as { __frames: { frames: number[]; on: boolean } }).__frames;
    state.on = false;
    return state.frames;
  });
}

/** Moves the mouse from (x, y) by (dx, dy) in `steps` pointer moves, button held, recording frames. */
async function gesture(page: Page, x: number, y: number, dx: number, dy: number, steps: number): Promise<number[]> {
  await page.mouse.move(x, y);
  await page.mouse.down();
  await startFrameRecorder(page);
  for (let step = 1; step <= steps; step++) {
    await page.mouse.move(x + (dx * step) / steps, y + (dy * step) / steps);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
  }
  const frames = await stopFrameRecorder(page);
  await page.mouse.up();
  return frames.slice(1);
}

async function main(): Promise<void> {
  const json = process.argv.includes("--json");
  const loads = countOption("loads", 5);
  const layouts = countOption("layouts", 3);
  const server = await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const rows: Row[] = [];
  try {
    const workflowId = await createBenchWorkflow(server.baseUrl);
    const url = `${server.baseUrl}/workflows/${workflowId}`;
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    // tsx keeps function names with a `__name` helper that page.evaluate callbacks carry into the page.
    await context.addInitScript("globalThis.__name = (target) => target;");
    await context.addInitScript(FIRST_RENDER_PROBE);
    const page = await context.newPage();
    // Warm the server's page cache and the browser's module cache once.
    await firstRender(page, url);

    const first: number[] = [];
    const settled: number[] = [];
    for (let sample = 0; sample < loads; sample++) {
      const result = await firstRender(page, url);
      first.push(result.first);
      settled.push(result.settled);
    }
    rows.push({ name: "first_render_ms", what: "navigation start → first node painted (300 nodes)", value: median(first), samples: first, target: TARGETS.first_render_ms });
    rows.push({ name: "all_visible_rendered_ms", what: "navigation start → every node in view painted", value: median(settled), samples: settled });

    await page.getByTestId("canvas-node").first().waitFor();
    const visible = page.locator('[data-testid="canvas-node"][data-node-type="agent"]').nth(3);
    const box = await visible.boundingBox();
    if (box === null) throw new Error("no node on screen to drag");
    const dragFrames = await gesture(page, box.x + 40, box.y + 14, 220, 120, 90);
    rows.push({ name: "drag_frame_p50_ms", what: "frame interval while dragging a node", value: percentile(dragFrames, 0.5), samples: [] });
    rows.push({ name: "drag_frame_p95_ms", what: "frame interval while dragging a node (p95)", value: percentile(dragFrames, 0.95), samples: [], target: TARGETS.drag_frame_p95_ms });

    const pane = await page.locator(".react-flow__pane").boundingBox();
    if (pane === null) throw new Error("no pane");
    const panFrames = await gesture(page, pane.x + 20, pane.y + pane.height - 40, 500, -300, 90);
    rows.push({ name: "pan_frame_p50_ms", what: "frame interval while panning", value: percentile(panFrames, 0.5), samples: [] });
    rows.push({ name: "pan_frame_p95_ms", what: "frame interval while panning (p95)", value: percentile(panFrames, 0.95), samples: [], target: TARGETS.pan_frame_p95_ms });

    const layoutMs: number[] = [];
    const appliedMs: number[] = [];
    const editor = page.getByTestId("workflow-editor");
    let thread = "";
    await page.waitForFunction(() => document.querySelector('[data-testid="workflow-editor"]')?.getAttribute("data-layout-warm") === "true", undefined, { timeout: 60_000 });
    for (let sample = 0; sample < layouts; sample++) {
      await waitForSettledView(page);
      const before = Number(await editor.getAttribute("data-layout-count"));
      const started = Date.now();
      await page.getByTestId("auto-layout").click();
      await page.waitForFunction((count) => Number(document.querySelector('[data-testid="workflow-editor"]')?.getAttribute("data-layout-count")) > count, before, { timeout: 60_000 });
      appliedMs.push(Date.now() - started);
      layoutMs.push(Number(await editor.getAttribute("data-layout-ms")));
      thread = (await editor.getAttribute("data-layout-thread")) ?? "";
    }
    rows.push({ name: "elk_layout_ms", what: `ELK layout of 300 nodes / 400 edges (in the ${thread} thread)`, value: median(layoutMs), samples: layoutMs, target: TARGETS.elk_layout_ms });
    rows.push({ name: "layout_applied_ms", what: "click Auto-layout → positions applied", value: median(appliedMs), samples: appliedMs });
    if (thread !== "worker") rows.push({ name: "elk_layout_off_main_thread", what: "ELK ran off the main thread (1 = yes)", value: 0, samples: [], target: 1 });
    await context.close();
  } finally {
    await browser.close();
    server.stop();
  }

  if (json) {
    for (const row of rows) console.log(JSON.stringify({ bench: row.name, value: Math.round(row.value * 10) / 10, target: row.target ?? null }));
    return;
  }
  const lines = [`canvas benchmark — 300 nodes, 400 edges, Chromium ${browser.version()}, ${new Date().toISOString()}`, ""];
  lines.push(`${"measure".padEnd(26)} ${"value".padStart(9)}  ${"target".padStart(9)}  met  what (samples)`);
  for (const row of rows) {
    const target = row.target === undefined ? "" : row.name === "elk_layout_off_main_thread" ? "1" : `< ${row.target}`;
    const met = row.target === undefined ? "" : row.name === "elk_layout_off_main_thread" ? "no" : row.value <= row.target ? "yes" : "NO";
    const samples = row.samples.length > 0 ? ` (${row.samples.map((value) => Math.round(value)).join(", ")})` : "";
    lines.push(`${row.name.padEnd(26)} ${row.value.toFixed(1).padStart(9)}  ${target.padStart(9)}  ${met.padEnd(3)}  ${row.what}${samples}`);
  }
  console.log(lines.join("\n"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
