import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { defineConfig } from "prisma/config";

/**
 * Prisma CLI configuration for the derived PostgreSQL schema (`prisma generate --config prisma.postgresql.config.ts`).
 * The adapter is only instantiated by commands that talk to a database; generate and `migrate diff` between
 * schema files do not connect.
 */
export default defineConfig({
  experimental: { adapter: true },
  schema: path.join("prisma", "postgresql", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations", "postgresql") },
  engine: "js",
  adapter: async () =>
    new PrismaPg({ connectionString: process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres" }),
});
