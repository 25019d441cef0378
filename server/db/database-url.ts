/**
 * Decides which database to open: an explicit url, else DATABASE_URL, else RATH_DB_PATH, else the embedded
 * default `.rath/studio.db` (relative to the working directory). `postgres://` and `postgresql://` select
 * PostgreSQL; `file:` urls and plain paths select SQLite.
 */
import path from "node:path";
import { RathError } from "../../runtime/errors";

/** The two supported database providers. */
export type DatabaseProvider = "sqlite" | "postgresql";

/** Where the embedded SQLite database lives when nothing else is configured. */
export const DEFAULT_SQLITE_PATH = path.join(".rath", "studio.db");

/** A resolved database location: SQLite carries an absolute file path, PostgreSQL a connection string. */
export type DatabaseLocation =
  | { provider: "sqlite"; filePath: string }
  | { provider: "postgresql"; connectionString: string };

/** Environment variables that choose the database: DATABASE_URL and RATH_DB_PATH (process.env by default). */
export type DatabaseEnvironment = Readonly<Record<string, string | undefined>>;

/** Resolves the database location from an explicit url or the environment; see the module comment for the order. */
export function resolveDatabaseLocation(
  url: string | undefined,
  environment: DatabaseEnvironment = process.env,
  workingDirectory: string = process.cwd(),
): DatabaseLocation {
  const chosen = nonEmpty(url) ?? nonEmpty(environment.DATABASE_URL);
  if (chosen !== undefined) return parseDatabaseUrl(chosen, workingDirectory);
  const filePath = nonEmpty(environment.RATH_DB_PATH) ?? DEFAULT_SQLITE_PATH;
  return { provider: "sqlite", filePath: path.resolve(workingDirectory, filePath) };
}

/** Parses one database url: `postgres(ql)://...` or `file:<path>` (in-memory SQLite is refused: migrations and
 * queries use separate connections, so each would see its own empty database). */
export function parseDatabaseUrl(url: string, workingDirectory: string = process.cwd()): DatabaseLocation {
  if (/^postgres(ql)?:\/\//i.test(url)) return { provider: "postgresql", connectionString: url };
  if (url.startsWith("file:")) {
    const filePath = url.slice("file:".length).replace(/^\/\/(?=\/)/, "");
    if (filePath === "") throw new RathError("invalid_config", `database url 'file:' has no path; expected e.g. file:.rath/studio.db`);
    if (filePath === ":memory:") {
      throw new RathError("invalid_config", "in-memory SQLite (file::memory:) is not supported; expected a file path, e.g. a temp file");
    }
    return { provider: "sqlite", filePath: path.resolve(workingDirectory, filePath) };
  }
  throw new RathError(
    "invalid_config",
    `unsupported database url '${redactDatabaseUrl(url)}'; expected postgres://, postgresql:// or file:<path>`,
  );
}

/** The url with any password replaced by `***`, safe for logs and error messages. */
export function redactDatabaseUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*):[^@/]*@/i, "$1:***@");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}
