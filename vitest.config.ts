import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["runtime/**/*.test.ts", "server/**/*.test.ts", "bench/**/*.test.ts", "examples/**/*.test.ts", "tests/**/*.test.ts", "components/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker on a 2-core machine (cores - 1). Most files wait on fsync, PostgreSQL, child
    // processes and timers, so two workers finish sooner: the whole suite passed with two at load 6-8.
    maxWorkers: 2,
    reporters: ["default"],
  },
});
