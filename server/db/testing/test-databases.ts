/**
 * Runs one test suite against both providers: SQLite (a temp file per database) and PostgreSQL at
 * 127.0.0.1:5432 (a fresh `rath_test_<random>` database per `open()`, dropped after the file). When PostgreSQL
 * is not reachable, its half fails under CI=true and is skipped with the reason elsewhere.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, it } from "vitest";
import type { DatabaseProvider } from "../database-url";
import { openDatabase, type Database, type OpenDatabaseOptions } from "../database";

/** The server-level PostgreSQL url the tests create their databases on (override with RATH_TEST_POSTGRES_URL). */
export const POSTGRES_ADMIN_URL = process.env.RATH_TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

async function probePostgres(): Promise<string | null> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return `PostgreSQL at ${POSTGRES_ADMIN_URL} is not reachable: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const postgresProblem = await probePostgres();

/** A test database: its url (to open more handles on it) and a first open handle. */
export interface TestDatabase {
  url: string;
  database: Database;
  /** Opens another handle (another connection pool) on the same database. */
  openAnother(options?: Omit<OpenDatabaseOptions, "url">): Promise<Database>;
}

/** Creates and opens a fresh test database. */
export type OpenTestDatabase = (options?: Omit<OpenDatabaseOptions, "url">) => Promise<TestDatabase>;

function withPostgresDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

function factory(provider: DatabaseProvider): { open: OpenTestDatabase; cleanup: () => Promise<void> } {
  const handles: Database[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  const track = async (url: string, options: Omit<OpenDatabaseOptions, "url"> = {}): Promise<Database> => {
    const database = await openDatabase({ ...options, url });
    handles.push(database);
    return database;
  };
  const open: OpenTestDatabase = async (options = {}) => {
    let url: string;
    if (provider === "sqlite") {
      const directory = mkdtempSync(path.join(os.tmpdir(), "rath-db-test-"));
      cleanups.push(async () => rmSync(directory, { recursive: true, force: true }));
      url = `file:${path.join(directory, "studio.db")}`;
    } else {
      const name = `rath_test_${randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      cleanups.push(async () => {
        const dropper = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await dropper.end();
      });
      url = withPostgresDatabase(POSTGRES_ADMIN_URL, name);
    }
    const database = await track(url, options);
    return { url, database, openAnother: (more) => track(url, more) };
  };
  const cleanup = async () => {
    await Promise.all(handles.splice(0).map((handle) => handle.close().catch(() => undefined)));
    for (const step of cleanups.splice(0)) await step();
  };
  return { open, cleanup };
}

/** Declares `body` once per provider (`<title> [sqlite]`, `<title> [postgresql]`); `open` makes fresh databases. */
export function describeEachDatabase(title: string, body: (open: OpenTestDatabase, provider: DatabaseProvider) => void): void {
  for (const provider of ["sqlite", "postgresql"] as const) {
    const label = `${title} [${provider}]`;
    if (provider === "postgresql" && postgresProblem !== null) {
      if (process.env.CI === "true") {
        describe(label, () => {
          it("needs PostgreSQL (CI=true)", () => {
            throw new Error(postgresProblem);
          });
        });
      } else {
        console.warn(`skipping "${label}": ${postgresProblem}`);
        describe.skip(label, () => body(async () => Promise.reject(new Error(postgresProblem)), provider));
      }
      continue;
    }
    describe(label, () => {
      const { open, cleanup } = factory(provider);
      afterAll(cleanup);
      body(open, provider);
    });
  }
}
