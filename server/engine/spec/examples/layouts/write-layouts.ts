/**
 * `npm run examples:layouts`: writes layouts.json next to this file (compute-layouts.ts). Run it after changing an
 * example's nodes or edges; layouts.test.ts fails until the stored layouts match.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { computeExampleLayouts } from "./compute-layouts";

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), "layouts.json");
// One line per node, so a changed example shows as a readable diff.
const slugs = Object.entries(await computeExampleLayouts()).map(([slug, layout]) => {
  const nodes = Object.entries(layout.nodes).map(([id, position]) => `      ${JSON.stringify(id)}: ${JSON.stringify(position)}`);
  return `  ${JSON.stringify(slug)}: {\n    "nodes": {\n${nodes.join(",\n")}\n    }\n  }`;
});
writeFileSync(target, `{\n${slugs.join(",\n")}\n}\n`);
console.info(`wrote ${path.relative(process.cwd(), target)}`);
