import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";

// The snippets are linted under file names that do not exist, which the type-aware project service cannot open;
// the import rules under test need no type information, so type-checked linting is off for them.
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });

async function restrictedImportMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === "no-restricted-imports").map((message) => message.message);
}

describe("architecture lint rule", () => {
  it.each([
    ['import next from "next/server";', "Next.js"],
    ['import { useState } from "react";', "React"],
    ['import { initTRPC } from "@trpc/server";', "tRPC"],
    ['import { PrismaClient } from "@prisma/client";', "Prisma"],
    ['import { x } from "../../server/db/client";', "server/"],
    ['import { y } from "@/components/ui/button";', "server/, app/ or components/"],
  ])("fails when runtime/ imports %s", async (code, expected) => {
    const messages = await restrictedImportMessages(code, "runtime/session/bad-import.ts");
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(expected);
  });

  it("allows zod, node built-ins and runtime-relative imports in runtime/", async () => {
    const code = 'import { z } from "zod";\nimport { readFile } from "node:fs/promises";\nimport { Session } from "../session/session";\n';
    expect(await restrictedImportMessages(code, "runtime/agent/ok.ts")).toEqual([]);
  });

  it("lets components/ import server types only", async () => {
    expect(await restrictedImportMessages('import { appRouter } from "@/server/api/root";', "components/x.tsx")).toHaveLength(1);
    expect(await restrictedImportMessages('import type { AppRouter } from "@/server/api/root";', "components/x.tsx")).toEqual([]);
  });
});
