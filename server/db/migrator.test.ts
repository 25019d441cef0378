import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { isRathError } from "../../runtime/errors";
import { parseDatabaseUrl } from "./database-url";
import { applyMigrations, defaultMigrationsDirectory, migrationChecksum, readMigrations } from "./migrator";
import { describeEachDatabase } from "./testing/test-databases";

const temporaryFolders: string[] = [];
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

/** A copy of the provider's checked-in migrations, which a test may edit. */
function copyMigrations(provider: "sqlite" | "postgresql"): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "rath-migrations-"));
  temporaryFolders.push(folder);
  const source = defaultMigrationsDirectory(provider);
  for (const file of readdirSync(source)) copyFileSync(path.join(source, file), path.join(folder, file));
  return folder;
}

async function tableNames(url: string): Promise<string[]> {
  const location = parseDatabaseUrl(url);
  if (location.provider === "sqlite") {
    const database = new BetterSqlite3(location.filePath, { readonly: true });
    const rows = database.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>;
    database.close();
    return rows.map((row) => row.name);
  }
  const client = new pg.Client({ connectionString: location.connectionString });
  await client.connect();
  const result = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
  );
  await client.end();
  return result.rows.map((row) => row.name);
}

/** The checked-in migrations, in order. */
const CHECKED_IN = ["0001_init", "0002_structural_sharing_and_checkpoint_seq", "0003_run_deadline", "0004_workflow_memory", "0005_session_own_usage", "0006_accounts_and_api_keys", "0007_model_prices", "0008_share_links", "0009_session_graph_order", "0010_event_log_without_foreign_keys"];

it("reads the checked-in migrations in name order with sha256 checksums", () => {
  const migrations = readMigrations(defaultMigrationsDirectory("sqlite"));
  expect(migrations.map((migration) => migration.name)).toEqual(CHECKED_IN);
  expect(migrations[0]?.checksum).toBe(migrationChecksum(migrations[0]?.sql ?? ""));
  expect(migrations[0]?.checksum).toMatch(/^[0-9a-f]{64}$/);
  expect(migrationChecksum("a\r\nb")).toBe(migrationChecksum("a\nb"));
});

describeEachDatabase("migrator", (open, provider) => {
  it("applies every checked-in migration to a fresh database at open, creating every table", async () => {
    const { url, database } = await open();
    expect(database.migrations).toEqual({ applied: CHECKED_IN, alreadyApplied: [] });
    const tables = await tableNames(url);
    for (const table of ["_rath_migrations", "workflows", "workflow_revisions", "runs", "run_events", "checkpoints", "sessions",
      "session_parents", "chunks", "effects", "interrupts", "provider_settings", "memory_stores", "memory_documents",
      "auth_users", "auth_sessions", "auth_accounts", "auth_verifications", "auth_secrets", "api_keys", "model_prices", "share_links"]) {
      expect(tables).toContain(table);
    }
  });

  it("is idempotent: a second run applies nothing", async () => {
    const { url, openAnother } = await open();
    expect(await applyMigrations(parseDatabaseUrl(url))).toEqual({ applied: [], alreadyApplied: CHECKED_IN });
    const again = await openAnother();
    expect(again.migrations).toEqual({ applied: [], alreadyApplied: CHECKED_IN });
  });

  it("applies a new file once, and refuses an applied file whose checksum changed", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    const location = parseDatabaseUrl(url);
    writeFileSync(path.join(folder, "9002_extra.sql"), `CREATE TABLE "extra" ("id" TEXT NOT NULL PRIMARY KEY);\n`);
    expect(await applyMigrations(location, folder)).toEqual({ applied: ["9002_extra"], alreadyApplied: CHECKED_IN });
    expect(await tableNames(url)).toContain("extra");

    appendFileSync(path.join(folder, "9002_extra.sql"), `CREATE TABLE "sneaky" ("id" TEXT);\n`);
    const refusal = await applyMigrations(location, folder).catch((error: unknown) => error);
    expect(isRathError(refusal, "conflict")).toBe(true);
    expect((refusal as Error).message).toContain("migration 9002_extra was changed after it was applied");
    expect(await tableNames(url)).not.toContain("sneaky");
  });

  it("refuses a migration that leaves a row pointing at nothing", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    writeFileSync(
      path.join(folder, "9002_orphan.sql"),
      `INSERT INTO "sessions" ("id", "run_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "chunk_count", "status") VALUES ('orphan', 'no-such-run', '[]', 'o', 'leaf_user', '[]', '{}', 0, 'ok');\n`,
    );
    await expect(applyMigrations(parseDatabaseUrl(url), folder)).rejects.toThrow(/foreign key/i);
    rmSync(path.join(folder, "9002_orphan.sql"));
    expect(await applyMigrations(parseDatabaseUrl(url), folder)).toEqual({ applied: [], alreadyApplied: CHECKED_IN });
  });

  it("rolls back a failing file entirely and does not record it", async () => {
    const folder = copyMigrations(provider);
    const { url } = await open({ migrationsDirectory: folder });
    const location = parseDatabaseUrl(url);
    writeFileSync(path.join(folder, "9002_broken.sql"), `CREATE TABLE "half" ("id" TEXT);\nCREATE TABLE "half" ("id" TEXT);\n`);
    await expect(applyMigrations(location, folder)).rejects.toThrow();
    expect(await tableNames(url)).not.toContain("half");
    rmSync(path.join(folder, "9002_broken.sql"));
    expect(await applyMigrations(location, folder)).toEqual({ applied: [], alreadyApplied: CHECKED_IN });
  });

  it("0002 keeps existing rows and sets each run's checkpoint_seq to its last checkpoint", async () => {
    const folder = copyMigrations(provider);
    const later = path.join(os.tmpdir(), `rath-0002-${process.pid}-${provider}.sql`);
    const name = "0002_structural_sharing_and_checkpoint_seq.sql";
    for (const file of readdirSync(folder).filter((entry) => entry > name)) rmSync(path.join(folder, file));
    copyFileSync(path.join(folder, name), later);
    rmSync(path.join(folder, name));
    const { url, database } = await open({ migrationsDirectory: folder });
    expect(database.migrations.applied).toEqual(["0001_init"]);
    const seed = [
      `INSERT INTO "workflows" ("id", "name", "updated_at") VALUES ('wf', 'w', CURRENT_TIMESTAMP)`,
      `INSERT INTO "workflow_revisions" ("id", "workflow_id", "number", "spec", "layout", "spec_sha256", "plan_id") VALUES ('rev', 'wf', 1, '{}', '{}', 'x', 'p')`,
      `INSERT INTO "runs" ("id", "workflow_id", "revision_id", "plan_hash", "status", "input", "updated_at") VALUES ('r1', 'wf', 'rev', 'h', 'running', '{}', CURRENT_TIMESTAMP)`,
      `INSERT INTO "runs" ("id", "workflow_id", "revision_id", "plan_hash", "status", "input", "updated_at") VALUES ('r2', 'wf', 'rev', 'h', 'queued', '{}', CURRENT_TIMESTAMP)`,
      `INSERT INTO "checkpoints" ("run_id", "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark") VALUES ('r1', 1, 'h', '{}', '[]', '[]', 0), ('r1', 2, 'h', '{}', '[]', '[]', 0)`,
      `INSERT INTO "sessions" ("id", "run_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "chunk_count", "status") VALUES ('s1', 'r1', '[]', 'o', 'leaf_user', '[]', '{}', 3, 'ok')`,
    ];
    for (const statement of seed) await database.client.$executeRawUnsafe(statement);
    copyFileSync(later, path.join(folder, name));
    rmSync(later);
    expect(await applyMigrations(parseDatabaseUrl(url), folder)).toEqual({ applied: [name.slice(0, -4)], alreadyApplied: ["0001_init"] });
    const runs = await database.client.$queryRawUnsafe<Array<{ id: string; checkpoint_seq: number }>>(`SELECT "id", "checkpoint_seq" FROM "runs" ORDER BY "id"`);
    expect(runs.map((run) => [run.id, Number(run.checkpoint_seq)])).toEqual([["r1", 2], ["r2", 0]]);
    const sessions = await database.client.$queryRawUnsafe<Array<{ base_session_id: string | null; base_chunk_count: number; chunk_count: number }>>(
      `SELECT "base_session_id", "base_chunk_count", "chunk_count" FROM "sessions"`,
    );
    expect(sessions.map((row) => [row.base_session_id, Number(row.base_chunk_count), Number(row.chunk_count)])).toEqual([[null, 0, 3]]);
  });

  it("0005 fills each session's own usage and inherited chunk count from the columns it had", async () => {
    const folder = copyMigrations(provider);
    const later = path.join(os.tmpdir(), `rath-0005-${process.pid}-${provider}.sql`);
    const name = "0005_session_own_usage.sql";
    for (const file of readdirSync(folder).filter((entry) => entry > name)) rmSync(path.join(folder, file));
    copyFileSync(path.join(folder, name), later);
    rmSync(path.join(folder, name));
    const { url, database } = await open({ migrationsDirectory: folder });
    const usage = (total: number) => `'{"prompt_tokens":${total - 1},"completion_tokens":1,"total_tokens":${total}}'`;
    const session = (id: string, kind: string, chunks: number, baseCount: number, sessionUsage: string) =>
      `INSERT INTO "sessions" ("id", "run_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "chunk_count", "status", "base_chunk_count", "usage") VALUES ('${id}', 'r1', '[]', 'o', '${kind}', '[]', '{}', ${chunks}, 'ok', ${baseCount}, ${sessionUsage})`;
    const seed = [
      `INSERT INTO "workflows" ("id", "name", "updated_at") VALUES ('wf', 'w', CURRENT_TIMESTAMP)`,
      `INSERT INTO "workflow_revisions" ("id", "workflow_id", "number", "spec", "layout", "spec_sha256", "plan_id") VALUES ('rev', 'wf', 1, '{}', '{}', 'x', 'p')`,
      `INSERT INTO "runs" ("id", "workflow_id", "revision_id", "plan_hash", "status", "input", "updated_at") VALUES ('r1', 'wf', 'rev', 'h', 'succeeded', '{}', CURRENT_TIMESTAMP)`,
      session("a-input", "leaf_user", 1, 0, "NULL"),
      session("b-loop", "op_session_loop", 3, 1, usage(30)),
      session("c-fork", "op_fork", 3, 3, "NULL"),
      session("d-merge", "op_merge", 6, 3, usage(60)),
    ];
    for (const statement of seed) await database.client.$executeRawUnsafe(statement);
    copyFileSync(later, path.join(folder, name));
    rmSync(later);
    expect((await applyMigrations(parseDatabaseUrl(url), folder)).applied).toEqual([name.slice(0, -4)]);
    const rows = await database.client.$queryRawUnsafe<Array<{ id: string; own_usage: string | null; inherited_chunk_count: number; created_seq: number }>>(
      `SELECT "id", "own_usage", "inherited_chunk_count", "created_seq" FROM "sessions" ORDER BY "id"`,
    );
    expect(rows.map((row) => [row.id, row.own_usage === null ? null : (JSON.parse(row.own_usage) as { total_tokens: number }).total_tokens, Number(row.inherited_chunk_count), Number(row.created_seq)])).toEqual([
      ["a-input", null, 0, 0],
      ["b-loop", 30, 1, 0],
      ["c-fork", null, 3, 0],
      // A merge's stored usage is its parents' sum (reference semantics); it spent nothing itself.
      ["d-merge", null, 6, 0],
    ]);
  });

  it("0010 keeps every event and checkpoint, drops their foreign keys to runs and the unused sessions (run_id, created_at) index", async () => {
    const folder = copyMigrations(provider);
    const later = path.join(os.tmpdir(), `rath-0010-${process.pid}-${provider}.sql`);
    const name = "0010_event_log_without_foreign_keys.sql";
    for (const file of readdirSync(folder).filter((entry) => entry > name)) rmSync(path.join(folder, file));
    copyFileSync(path.join(folder, name), later);
    rmSync(path.join(folder, name));
    const { url, database } = await open({ migrationsDirectory: folder });
    expect(database.migrations.applied.at(-1)).toBe("0009_session_graph_order");
    const seed = [
      `INSERT INTO "workflows" ("id", "name", "updated_at") VALUES ('wf', 'w', CURRENT_TIMESTAMP)`,
      `INSERT INTO "workflow_revisions" ("id", "workflow_id", "number", "spec", "layout", "spec_sha256", "plan_id") VALUES ('rev', 'wf', 1, '{}', '{}', 'x', 'p')`,
      `INSERT INTO "runs" ("id", "workflow_id", "revision_id", "plan_hash", "status", "input", "updated_at", "event_seq", "checkpoint_seq") VALUES ('r1', 'wf', 'rev', 'h', 'running', '{}', CURRENT_TIMESTAMP, 3, 1)`,
      `INSERT INTO "run_events" ("run_id", "seq", "type", "payload") VALUES ('r1', 1, 'run.created', '{"a":1}'), ('r1', 2, 'run.claimed', '{}'), ('r1', 3, 'run.checkpoint.created', '{"seq":1}')`,
      `INSERT INTO "checkpoints" ("run_id", "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark") VALUES ('r1', 1, 'h', '{"steps":1}', '["b"]', '[]', 2)`,
      `INSERT INTO "sessions" ("id", "run_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "chunk_count", "status", "created_seq") VALUES ('s1', 'r1', '[]', 'o', 'leaf_user', '[]', '{}', 0, 'ok', 2)`,
    ];
    for (const statement of seed) await database.client.$executeRawUnsafe(statement);
    // Before 0010 an event of a run that does not exist is refused by the foreign key.
    await expect(database.client.$executeRawUnsafe(`INSERT INTO "run_events" ("run_id", "seq", "type", "payload") VALUES ('nope', 1, 'x', '{}')`)).rejects.toThrow();
    copyFileSync(later, path.join(folder, name));
    rmSync(later);
    expect((await applyMigrations(parseDatabaseUrl(url), folder)).applied).toEqual([name.slice(0, -4)]);
    const events = await database.client.$queryRawUnsafe<Array<{ run_id: string; seq: number; type: string; payload: string }>>(
      `SELECT "run_id", "seq", "type", "payload" FROM "run_events" ORDER BY "run_id", "seq"`,
    );
    expect(events.map((event) => [event.run_id, Number(event.seq), event.type, event.payload])).toEqual([
      ["r1", 1, "run.created", '{"a":1}'],
      ["r1", 2, "run.claimed", "{}"],
      ["r1", 3, "run.checkpoint.created", '{"seq":1}'],
    ]);
    const checkpoints = await database.client.$queryRawUnsafe<Array<{ seq: number; state: string; next_nodes: string; effect_watermark: number }>>(
      `SELECT "seq", "state", "next_nodes", "effect_watermark" FROM "checkpoints" WHERE "run_id" = 'r1'`,
    );
    expect(checkpoints.map((row) => [Number(row.seq), row.state, row.next_nodes, Number(row.effect_watermark)])).toEqual([[1, '{"steps":1}', '["b"]', 2]]);
    // The primary keys stay: an event seq stored twice is still refused.
    await expect(database.client.$executeRawUnsafe(`INSERT INTO "run_events" ("run_id", "seq", "type", "payload") VALUES ('r1', 3, 'x', '{}')`)).rejects.toThrow();
    await expect(database.client.$executeRawUnsafe(`INSERT INTO "checkpoints" ("run_id", "seq", "plan_hash", "state", "next_nodes", "pending_interrupts", "effect_watermark") VALUES ('r1', 1, 'h', '{}', '[]', '[]', 0)`)).rejects.toThrow();
    // No key check on the event log and the checkpoints any more; sessions still have theirs.
    await database.client.$executeRawUnsafe(`INSERT INTO "run_events" ("run_id", "seq", "type", "payload") VALUES ('nope', 1, 'x', '{}')`);
    await expect(
      database.client.$executeRawUnsafe(
        `INSERT INTO "sessions" ("id", "run_id", "parents", "lineage_operator", "lineage_kind", "lineage_extras", "placement", "chunk_count", "status") VALUES ('s2', 'nope', '[]', 'o', 'leaf_user', '[]', '{}', 0, 'ok')`,
      ),
    ).rejects.toThrow();
    const indexes =
      provider === "sqlite"
        ? await database.client.$queryRawUnsafe<Array<{ name: string }>>(`SELECT "name" FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sessions'`)
        : await database.client.$queryRawUnsafe<Array<{ name: string }>>(`SELECT indexname::text AS "name" FROM pg_indexes WHERE tablename = 'sessions'`);
    const names = indexes.map((row) => row.name);
    expect(names).toContain("sessions_run_id_created_seq_idx");
    expect(names).not.toContain("sessions_run_id_created_at_idx");
  });
});
