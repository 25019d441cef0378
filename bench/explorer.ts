/**
 * The explorer benchmark: `npm run bench:explorer [-- --postgres]` (needs a production build: `npx next build`).
 *
 * 1. Builds a run of 5,000 sessions and 50,000 chunks (bench/explorer-graph.ts) and imports it into a fresh SQLite
 *    database through the store (`importBundle`), starts the studio on it (BENCH_PORT, default 3104) and drives
 *    Debian's Chromium: navigation to the graph's first paint (median of 3), ELK's layout time, frame times while
 *    panning and zooming (p50/p95), and the page's JS heap after a GC.
 * 2. Live latency: a scripted model (a local Chat Completions server) answers a chain of 210 agents behind an
 *    approval gate: the page opens on the waiting run and is settled (and observed) before the gate is approved, so
 *    every chunk arrives live; the studio's embedded worker commits each step; for each `chunk.appended` event, the
 *    time from its commit (the event's `at`) to the end of the frame that paints it (the live indicator's event
 *    seq) — p50/p95 over the last 200 chunks; and to the end of the frame after which the chunk's row is in view in the
 *    chunk list (which follows the growing end), its own row.
 *    With `--postgres` the same on PostgreSQL (a fresh `rath_bench_explorer_<random>` database on the server of
 *    RATH_TEST_POSTGRES_URL or postgres@127.0.0.1, dropped afterwards) with a separate `npm run worker` process, so
 *    the events cross processes through LISTEN/NOTIFY. Each latency is split in two: commit to the event reaching
 *    the page (server push, read from the page's EventSource) and arrival to paint (the page's work).
 * Prints a table with the targets. Numbers only; nothing here asserts a time.
 */
import { chromium, type Browser, type Page } from "@playwright/test";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import pg from "pg";
import { tmpdir } from "node:os";
import path from "node:path";
import { startChatCompletionsServer } from "../runtime/testing/chat-completions-server";
import { openDatabase } from "../server/db/database";
import { importBundle } from "../server/services/transfer-service";
import { explorerRun } from "./explorer-graph";
import { coveredAt, followProbe, notifyProbe, streamProbe } from "./live-probes";

const PORT = Number(process.env.BENCH_PORT ?? 3104);
const BASE = `http://127.0.0.1:${PORT}`;
const withPostgres = process.argv.includes("--postgres");
/** `--live-only`: skip the 5,000-session run and measure the live latency only. */
const liveOnly = process.argv.includes("--live-only");
/** The text after `--name` on the command line, or null when the option is not given. */
function optionText(name: string): string | null {
  const index = process.argv.indexOf(`--${name}`);
  return index < 0 ? null : (process.argv[index + 1] ?? null);
}
/** `--profile <file>`: write a CPU profile of the page during the SQLite live run (Chrome DevTools format). */
const profilePath = optionText("profile");
/** `--trace <file>`: write a Chrome trace (DevTools timeline categories) of the page during the SQLite live run. */
const tracePath = optionText("trace");
/** `--trace-categories a,b`: more trace categories (e.g. `disabled-by-default-devtools.timeline.invalidationTracking`). */
const extraTraceCategories = (optionText("trace-categories") ?? "").split(",").filter((name) => name !== "");
/** `--screenshot <file>`: a screenshot of the page in the middle of the SQLite live run (what the numbers are of). */
const screenshotPath = optionText("screenshot");
const POSTGRES_ADMIN_URL = process.env.RATH_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Creates a fresh PostgreSQL database for the bench; returns its url and how to drop it. */
async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `rath_bench_explorer_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await dropper.end();
    },
  };
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

async function trpc<T>(pathName: string, input: unknown, mutation = false): Promise<T> {
  const response = mutation
    ? await fetch(`${BASE}/api/trpc/${pathName}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) })
    : await fetch(`${BASE}/api/trpc/${pathName}?input=${encodeURIComponent(JSON.stringify(input))}`);
  if (!response.ok) throw new Error(`${pathName}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { result: { data: T } }).result.data;
}

function startStudio(environment: Record<string, string>): ChildProcess {
  return spawn("node", ["bin/rath-serve.mjs", "start", "--port", String(PORT)], {
    env: { ...process.env, RATH_HOST: "127.0.0.1", RATH_AUTH: "", NEXT_TELEMETRY_DISABLED: "1", ...environment },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitForStudio(): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${BASE}/api/trpc/workflows.list`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the studio did not start on ${BASE}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
}

async function firstPaint(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForSelector('[data-testid="graph-node"], [data-testid="graph-chain"]', { timeout: 180_000 });
  // Browser code as strings: tsx would wrap functions in a `__name` helper the page does not have.
  return page.evaluate<number>("new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now())))");
}

async function frameTimes(page: Page): Promise<number[]> {
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__recording = true;
    let last = performance.now();
    const tick = (now) => {
      if (!window.__recording) return;
      window.__frames.push(now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  const box = await page.getByTestId("session-graph").boundingBox();
  if (box === null) throw new Error("no graph on the page");
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  for (let pass = 0; pass < 3; pass++) {
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    for (let step = 1; step <= 40; step++) await page.mouse.move(centre.x - step * 8, centre.y - step * 4);
    await page.mouse.up();
    for (let step = 0; step < 12; step++) await page.mouse.wheel(0, pass % 2 === 0 ? -120 : 120);
  }
  return page.evaluate<number[]>("(() => { window.__recording = false; return window.__frames.slice(2); })()");
}

async function heapMegabytes(page: Page): Promise<number> {
  const session = await page.context().newCDPSession(page);
  await session.send("HeapProfiler.collectGarbage");
  const usage = (await session.send("Runtime.getHeapUsage")) as { usedSize: number };
  return usage.usedSize / 1024 / 1024;
}

interface LiveResult {
  samples: number[];
  /** Commit to the callback of the frame after the paint (the probe before 2026-12-05; see PAINT_PROBE). */
  nextFrames: number[];
  /** Commit to the end of the frame after which the chunk list shows the chunk's row within its box. */
  inView: number[];
  /** Chunks whose row was not seen in the list within IN_VIEW_FRAMES frames of their paint (another session shown). */
  notInView: number;
  /** Commit to the event reaching the page. */
  arrivals: number[];
  /** The event reaching the page to the frame that shows it painted (the page's own work and queue). */
  pageWork: number[];
  /** Commit to the event reaching a plain Node reader of the same stream (no browser). */
  pushes: number[];
  /** PostgreSQL: commit to its notification reaching a LISTEN connection. */
  notifies: number[];
  /** PostgreSQL: commit to the event read by `followRunEvents` in the bench's own process (no Next.js, no HTTP). */
  follows: number[];
  chunks: number;
  notes: string[];
}

/** Records when each server-sent event (by its id: the event seq) reaches the page, before the page handles it. */
const RECORD_ARRIVALS = `(() => {
  const arrived = new Map();
  window.__arrived = arrived;
  const Original = window.EventSource;
  window.EventSource = class extends Original {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        const seq = Number(event.lastEventId);
        if (Number.isFinite(seq) && !arrived.has(seq)) arrived.set(seq, Date.now());
      });
    }
  };
})()`;

/**
 * When the page has painted each live indicator's event seq (`data-last-seq`, set when a batch of events is
 * rendered). The page renders a batch inside an animation-frame callback (use-run-live.ts), so the attribute changes
 * inside the frame's rendering update; the frame is painted when that update's style, layout and paint are done,
 * which is when a task posted from inside it runs (a MessageChannel message: it waits for the rendering update, not for
 * another frame). A change outside a frame (a task) is painted by the next frame: the probe waits for that frame's
 * callbacks, then for the end of its rendering update the same way.
 * Before 2026-12-05 the probe called `requestAnimationFrame` from the MutationObserver: inside a frame that is the
 * next frame's callback, one frame after the paint (up to 16.7 ms, more when a task ran between). That time is still
 * recorded (`__nextFrame`) and printed as its own row, to compare with earlier numbers.
 * The indicator is painted with the batch, but the chunk list may show the new chunk's row later (it scrolls to a
 * growing end, and renders the rows past the old end after that): `__inView` records, at the end of the frame that
 * paints a batch and of each following frame until the list shows its session's last chunk, the list's session and
 * the highest chunk index whose row lies within the list's box — "commit to chunk row in view". A chunk the list never
 * showed within those frames (the list had moved on to the next session first) is counted in the row's label and left
 * out of its percentiles.
 */
const IN_VIEW_FRAMES = 30;
const PAINT_PROBE = `(() => {
  const painted = [];
  const nextFrame = [];
  window.__painted = painted;
  window.__nextFrame = nextFrame;
  let inFrame = false;
  let afterFrame = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    inFrame = false;
    const now = Date.now();
    const waiting = afterFrame;
    afterFrame = [];
    for (const done of waiting) done(now);
  };
  const original = window.requestAnimationFrame.bind(window);
  // The first callback of each frame marks the frame and posts the message that runs after its rendering update.
  const enter = () => {
    if (inFrame) return;
    inFrame = true;
    channel.port2.postMessage(0);
  };
  window.requestAnimationFrame = (callback) => original((time) => {
    enter();
    callback(time);
  });
  const target = document.querySelector('[data-testid="live-indicator"]');
  if (target === null) throw new Error("no live indicator");
  // After each painted batch, and after each following frame until the chunk list shows its session's last chunk (at
  // most ${IN_VIEW_FRAMES} frames): the list's session and the highest chunk index whose row lies in the list's box.
  const inView = [];
  window.__inView = inView;
  let checking = 0;
  const check = (now) => {
    const list = document.querySelector('[data-testid="chunk-list"]');
    if (list === null) return true;
    const box = list.getBoundingClientRect();
    let highest = -1;
    for (const row of list.querySelectorAll('[data-testid="chunk"]')) {
      const rect = row.getBoundingClientRect();
      const shown = (rect.top >= box.top - 1 && rect.bottom <= box.bottom + 1) || (rect.top <= box.top && rect.bottom >= box.bottom);
      if (shown) highest = Math.max(highest, Number(row.getAttribute("data-index")));
    }
    inView.push([now, list.getAttribute("data-session-id"), highest]);
    return highest >= Number(list.getAttribute("data-chunk-count")) - 1;
  };
  const checkAfter = (now) => {
    checking -= 1;
    if (check(now) || checking <= 0) {
      checking = 0;
      return;
    }
    original(() => {
      enter();
      afterFrame.push(checkAfter);
    });
  };
  new MutationObserver(() => {
    const seq = Number(target.getAttribute("data-last-seq"));
    original(() => nextFrame.push([seq, Date.now()]));
    const running = checking > 0;
    checking = ${IN_VIEW_FRAMES} + 1;
    if (inFrame) {
      afterFrame.push((now) => painted.push([seq, now]));
      if (!running) afterFrame.push(checkAfter);
    } else original(() => {
      enter();
      afterFrame.push((now) => painted.push([seq, now]));
      if (!running) afterFrame.push(checkAfter);
    });
  }).observe(target, { attributes: true, attributeFilter: ["data-last-seq"] });
})()`;

/**
 * Agents in the live chain: each commits one step with one `chunk.appended` (its model's answer), so 210 agents give
 * 210 live chunks and the latencies are taken over the last 200 of them (110 agents gave 110 samples, not 200).
 */
const LIVE_AGENTS = 210;
/** Live chunks the percentiles are taken over (the chain's last ones). */
const LIVE_SAMPLES = 200;

/** Waits (polling `runs.get` every 250 ms, up to 150 s) until the run has one of `statuses`. */
async function waitForRunStatus(runId: string, statuses: readonly string[]): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt++) {
    const status = (await trpc<{ run: { status: string } }>("runs.get", { runId })).run.status;
    if (statuses.includes(status)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} did not reach ${statuses.join(" or ")}`);
}

/** Live latency of one chain run on the studio at BASE (its worker is the embedded one, or a separate process). */
async function liveLatency(browser: Browser, postgresUrl: string | null = null): Promise<LiveResult> {
  const model = await startChatCompletionsServer({ script: (_request, index) => ({ type: "completion", content: `Step ${index + 1} done.`, delayMs: 40 }) });
  try {
    const provider = `bench-live-${Date.now()}`;
    await trpc("settings.providers.upsert", { name: provider, kind: "openai", baseUrl: model.baseURL, model: "scripted-model", apiKey: "sk-bench-not-real" }, true);
    const agents = Array.from({ length: LIVE_AGENTS }, (_, index) => ({ id: `a${index}`, type: "agent", label: `Agent ${index}`, config: { name: `a${index}`, instructions: "Answer.", maxRounds: 2 } }));
    const gate = { id: "gate", type: "approval", label: "Start", config: { prompt: "Start the chain?", allowEdit: false } };
    const ids = ["input", gate.id, ...agents.map((agent) => agent.id), "output"];
    const spec = {
      version: 1,
      name: "Explorer live benchmark",
      settings: { defaultProvider: provider, defaultModel: "scripted-model", maxSteps: 400 },
      nodes: [{ id: "input", type: "input", label: "In", config: {} }, gate, ...agents, { id: "output", type: "output", label: "Out", config: {} }],
      edges: ids.slice(1).map((target, index) => ({ id: `e${index}`, source: ids[index], sourcePort: "out", target, targetPort: "in" })),
    };
    // The page opens on the run waiting at its gate, so every chunk of the chain arrives live.
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript(RECORD_ARRIVALS);
    let startedId: string | null = null;
    const notify = postgresUrl === null ? null : await notifyProbe(postgresUrl, () => startedId);
    const followDatabase = postgresUrl === null ? null : await openDatabase({ url: postgresUrl });
    const started = await trpc<{ run: { id: string } }>("runs.start", { spec, input: "Go." }, true);
    const runId = started.run.id;
    startedId = runId;
    const push = streamProbe(BASE, runId);
    const follow = followDatabase === null ? null : followProbe(followDatabase, runId);
    await waitForRunStatus(runId, ["waiting"]);
    await page.goto(`${BASE}/runs/${runId}`);
    await page.waitForSelector('[data-testid="live-indicator"][data-state="live"]');
    await page.waitForSelector('[data-testid="session-graph"], [data-testid="graph-empty"]');
    await page.waitForTimeout(1000);
    const profiler = profilePath !== null && postgresUrl === null ? await page.context().newCDPSession(page) : null;
    if (profiler !== null) {
      await profiler.send("Profiler.enable");
      await profiler.send("Profiler.setSamplingInterval", { interval: 200 });
      await profiler.send("Profiler.start");
    }
    const tracing = tracePath !== null && postgresUrl === null;
    if (tracing) await browser.startTracing(page, { path: tracePath, screenshots: false, categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing", "v8.execute", ...extraTraceCategories] });
    await page.evaluate(PAINT_PROBE);
    // What the page asks the server while the chain runs (each request is work for the studio beside the stream).
    const requests = new Map<string, number>();
    const countRequest = (request: { url: () => string }): void => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith("/api/trpc/")) return;
      for (const name of decodeURIComponent(url.pathname.slice("/api/trpc/".length)).split(",")) requests.set(name, (requests.get(name) ?? 0) + 1);
    };
    page.on("request", countRequest);
    const [interrupt] = await trpc<Array<{ id: string }>>("runs.pendingInterrupts", { runId });
    if (interrupt === undefined) throw new Error(`run ${runId} has no pending gate`);
    await trpc("runs.decideInterrupt", { interruptId: interrupt.id, decision: "approve" }, true);
    if (screenshotPath !== null && postgresUrl === null) {
      await page.waitForTimeout(8000);
      await page.screenshot({ path: screenshotPath });
    }
    await waitForRunStatus(runId, ["succeeded", "failed", "cancelled", "timed_out"]);
    await page.waitForTimeout(500);
    if (profiler !== null && profilePath !== null) {
      const { profile } = (await profiler.send("Profiler.stop")) as { profile: unknown };
      writeFileSync(profilePath, JSON.stringify(profile));
    }
    if (tracing) await browser.stopTracing();
    page.off("request", countRequest);
    const painted = await page.evaluate<Array<[number, number]>>("window.__painted");
    const nextFrame = await page.evaluate<Array<[number, number]>>("window.__nextFrame");
    const inViewFrames = await page.evaluate<Array<[number, string | null, number]>>("window.__inView");
    const arrived = new Map(await page.evaluate<Array<[number, number]>>("[...window.__arrived]"));
    const firstLiveSeq = painted[0]?.[0] ?? Number.POSITIVE_INFINITY;
    const chunkEvents: Array<{ seq: number; at: string; payload: { session_id?: string; index?: number } }> = [];
    let afterSeq = 0;
    for (;;) {
      const page = await trpc<{ events: Array<{ seq: number; type: string; at: string; payload: { session_id?: string; index?: number } }>; nextAfterSeq: number }>("runs.events", { runId, afterSeq, limit: 1000, types: ["chunk.appended"] });
      chunkEvents.push(...page.events);
      if (page.events.length < 1000) break;
      afterSeq = page.nextAfterSeq;
    }
    await push.stop();
    await notify?.stop();
    await follow?.stop();
    await followDatabase?.close();
    const samples: number[] = [];
    const nextFrames: number[] = [];
    const inView: number[] = [];
    const arrivals: number[] = [];
    const pageWork: number[] = [];
    const pushes: number[] = [];
    const notifies: number[] = [];
    const follows: number[] = [];
    for (const event of chunkEvents) {
      if (event.seq < firstLiveSeq) continue;
      const shown = painted.find(([seq]) => seq >= event.seq);
      if (shown === undefined) continue;
      const committed = Date.parse(event.at);
      samples.push(shown[1] - committed);
      nextFrames.push((nextFrame.find(([seq]) => seq >= event.seq)?.[1] ?? Number.NaN) - committed);
      const { session_id: sessionId, index } = event.payload;
      const seen = inViewFrames.find(([at, session, highest]) => at >= shown[1] && session === sessionId && index !== undefined && highest >= index);
      inView.push(seen === undefined ? Number.NaN : seen[0] - committed);
      const reached = arrived.get(event.seq);
      arrivals.push(reached === undefined ? Number.NaN : reached - committed);
      pageWork.push(reached === undefined ? Number.NaN : shown[1] - reached);
      const pushed = push.seen.get(event.seq);
      pushes.push(pushed === undefined ? Number.NaN : pushed - committed);
      notifies.push(notify === null ? Number.NaN : coveredAt(notify.seen, event.seq) - committed);
      follows.push((follow?.seen.get(event.seq) ?? Number.NaN) - committed);
    }
    await page.close();
    const last = (values: number[]) => values.slice(-LIVE_SAMPLES).filter(Number.isFinite);
    const asked = [...requests].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${name} ${count}`);
    const notes = [...push.notes, `page requests while the chain ran (${postgresUrl === null ? "SQLite" : "PostgreSQL"}): ${asked.join(", ") || "none"}`];
    const lastInView = inView.slice(-LIVE_SAMPLES);
    return { samples: samples.slice(-LIVE_SAMPLES), nextFrames: last(nextFrames), inView: lastInView.filter(Number.isFinite), notInView: lastInView.filter((value) => !Number.isFinite(value)).length, arrivals: last(arrivals), pageWork: last(pageWork), pushes: last(pushes), notifies: last(notifies), follows: last(follows), chunks: samples.length, notes };
  } finally {
    await model.close();
  }
}

interface Row {
  measure: string;
  value: string;
  target: string;
  met: string;
}

function row(measure: string, value: number, unit: string, target: string, ok: (value: number) => boolean): Row {
  return { measure, value: Number.isFinite(value) ? `${value.toFixed(unit === "MB" ? 1 : 0)} ${unit}` : "n/a", target, met: Number.isFinite(value) ? (ok(value) ? "yes" : "NO") : "n/a" };
}

/** The 5,000-session run: first paint, frame times and heap (rows and notes are appended); returns the studio. */
async function graphMeasures(browser: Browser, databaseFile: string, rows: Row[], notes: string[]): Promise<ChildProcess> {
  const generated = explorerRun(5000, 50_000);
  const database = await openDatabase({ url: `file:${databaseFile}` });
  const imported = await importBundle(database, { content: generated.bundle, fileName: "explorer-bench.jsonl" });
  await database.close();
  notes.push(`run ${imported.runId}: ${generated.sessions} sessions, ${generated.ownChunks} own chunks (${(generated.bundle.length / 1e6).toFixed(1)} MB bundle), imported through the store`);

  const studio = startStudio({ RATH_DB_PATH: databaseFile, DATABASE_URL: "" });
  await waitForStudio();
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const url = `${BASE}/runs/${imported.runId}`;
  const paints: number[] = [];
  for (let attempt = 0; attempt < 3; attempt++) paints.push(await firstPaint(page, url));
  const layoutStarted = Date.now();
  await page.waitForSelector('[data-testid="session-graph"]:is([data-layout="elk"], [data-layout="quick"])', { timeout: 600_000 });
  const graphElement = page.getByTestId("session-graph");
  notes.push(
    `final layout (${await graphElement.getAttribute("data-layout")}) ${((Date.now() - layoutStarted) / 1000).toFixed(1)} s after the third first paint; nodes drawn: ${await graphElement.getAttribute("data-node-count")} for ${await graphElement.getAttribute("data-session-count")} sessions; nodes in the DOM: ${await page.locator(".react-flow__node").count()}`,
  );
  const frames = await frameTimes(page);
  const heap = await heapMegabytes(page);
  rows.push(row("first paint of the graph (median of 3)", percentile(paints, 50), "ms", "< 2000 ms", (value) => value < 2000));
  rows.push(row("frame time while panning/zooming p50", percentile(frames, 50), "ms", "-", () => true));
  rows.push(row("frame time while panning/zooming p95", percentile(frames, 95), "ms", "<= 20 ms", (value) => value <= 20));
  rows.push(row("JS heap after GC", heap, "MB", "< 300 MB", (value) => value < 300));
  notes.push(`first paints: ${paints.map((value) => value.toFixed(0)).join(", ")} ms; ${frames.length} frames recorded`);
  await page.close();
  return studio;
}

/** The live rows of one database: end to end, then each stage measured from the commit. */
function liveRows(name: string, result: LiveResult): Row[] {
  const stages: Array<[string, number[]]> = [
    ["commit to NOTIFY heard (LISTEN)", result.notifies],
    ["commit to followRunEvents in Node", result.follows],
    ["commit to stream read by Node", result.pushes],
    ["commit to page arrival", result.arrivals],
    ["page arrival to painted", result.pageWork],
    ["commit to next frame (probe before 2026-12-05)", result.nextFrames],
    [`commit to chunk row in view (${result.inView.length} chunks${result.notInView > 0 ? `, ${result.notInView} not seen` : ""})`, result.inView],
  ];
  return [
    row(`live latency ${name} p50 (${result.samples.length} chunks)`, percentile(result.samples, 50), "ms", "-", () => true),
    row(`live latency ${name} p95`, percentile(result.samples, 95), "ms", "< 100 ms", (value) => value < 100),
    ...stages
      .filter(([, values]) => values.length > 0)
      .flatMap(([stage, values]) => [row(`  ${stage} p50`, percentile(values, 50), "ms", "-", () => true), row(`  ${stage} p95`, percentile(values, 95), "ms", "-", () => true)]),
  ];
}

async function main(): Promise<void> {
  const directory = mkdtempSync(path.join(tmpdir(), "rath-bench-explorer-"));
  const databaseFile = path.join(directory, "studio.db");
  const rows: Row[] = [];
  const notes: string[] = [];
  const browser = await chromium.launch({ executablePath: process.env.E2E_CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
  let studio: ChildProcess | null = null;
  try {
    if (liveOnly) {
      // The live part alone: a fresh, empty embedded database.
      await (await openDatabase({ url: `file:${databaseFile}` })).close();
      studio = startStudio({ RATH_DB_PATH: databaseFile, DATABASE_URL: "" });
      await waitForStudio();
    } else {
      studio = await graphMeasures(browser, databaseFile, rows, notes);
    }

    const sqlite = await liveLatency(browser);
    rows.push(...liveRows("SQLite", sqlite));
    notes.push(...sqlite.notes);
    await stop(studio);
    studio = null;

    if (withPostgres) {
      const postgresDatabase = await createPostgresDatabase();
      // The studio migrates the fresh database; the worker starts once it answers.
      studio = startStudio({ DATABASE_URL: postgresDatabase.url, RATH_DB_PATH: "" });
      let worker: ChildProcess | null = null;
      try {
        await waitForStudio();
        worker = spawn(path.join("node_modules", ".bin", "tsx"), ["server/cli/worker.ts"], { env: { ...process.env, DATABASE_URL: postgresDatabase.url }, stdio: ["ignore", "ignore", "inherit"] });
        const postgres = await liveLatency(browser, postgresDatabase.url);
        rows.push(...liveRows("PostgreSQL", postgres));
        notes.push(...postgres.notes.filter((note) => note.startsWith("page requests")));
      } finally {
        if (worker !== null) await stop(worker);
        await stop(studio);
        studio = null;
        await postgresDatabase.drop();
      }
    } else {
      rows.push({ measure: "live latency PostgreSQL", value: "not run", target: "< 100 ms", met: "n/a (pass --postgres)" });
    }
  } finally {
    if (studio !== null) await stop(studio);
    await browser.close();
    rmSync(directory, { recursive: true, force: true });
  }
  const widths = [60, 14, 10, 20];
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index] as number)).join("  ");
  console.log(line(["measure", "value", "target", "met"]));
  for (const entry of rows) console.log(line([entry.measure, entry.value, entry.target, entry.met]));
  for (const note of notes) console.log(`# ${note}`);
}

await main();
