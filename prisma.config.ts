import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

/** Prisma CLI configuration for the SQLite source-of-truth schema (`prisma generate`, `prisma migrate diff`). */
export default defineConfig({
  experimental: { adapter: true },
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations", "sqlite") },
  engine: "js",
  adapter: async () => new PrismaBetterSQLite3({ url: ":memory:" }),
});
