import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["runtime/**/*.test.ts", "server/**/*.test.ts", "bench/**/*.test.ts", "examples/**/*.test.ts", "tests/**/*.test.ts", "components/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    reporters: ["default"],
  },
});
