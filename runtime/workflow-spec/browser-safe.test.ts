import { readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const MODULE_DIRECTORY = path.dirname(new URL(import.meta.url).pathname);
const IMPORT = /(?:import|export)\s[^;]*?from\s+"([^"]+)"|import\s*\(\s*"([^"]+)"\s*\)|^import\s+"([^"]+)"/gm;
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
/** Packages the browser bundle may contain from this module. */
const ALLOWED_PACKAGES = new Set(["zod"]);

function resolveRelative(from: string, specifier: string): string {
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, "index.ts")]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      // try the next form
    }
  }
  throw new Error(`${from}: cannot resolve '${specifier}'`);
}

/** Every module the spec module reaches through relative imports, with the packages each one names. */
function importGraph(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (packages.has(file)) continue;
    const named: string[] = [];
    packages.set(file, named);
    const source = readFileSync(file, "utf8");
    for (const match of source.matchAll(IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? "";
      if (specifier.startsWith(".")) queue.push(resolveRelative(file, specifier));
      else named.push(specifier);
    }
  }
  return packages;
}

describe("the workflow spec module is browser-safe", () => {
  it("reaches no Node built-in and no package but zod, however deep the import", () => {
    const graph = importGraph(path.join(MODULE_DIRECTORY, "index.ts"));
    expect(graph.size).toBeGreaterThan(10);
    const offending: string[] = [];
    for (const [file, packages] of graph) {
      for (const name of packages) {
        if (BUILTINS.has(name) || !ALLOWED_PACKAGES.has(name)) offending.push(`${path.relative(process.cwd(), file)} imports '${name}'`);
      }
    }
    expect(offending).toEqual([]);
  });

  it("would catch a Node built-in (the scanner reads the import forms used here)", () => {
    const sample = 'import { createHash } from "node:crypto";\nexport * from "./ports";\nconst lazy = import("fs");';
    const found = [...sample.matchAll(IMPORT)].map((match) => match[1] ?? match[2] ?? match[3]);
    expect(found).toEqual(["node:crypto", "./ports", "fs"]);
  });
});
