// Lint rules that guard the architecture: runtime/ is framework-free, components/ never reaches into server/,
// and the workflow spec module (shared with the browser) imports no Node built-in.
import { builtinModules } from "node:module";
import tseslint from "typescript-eslint";

const frameworkImports = [
  { group: ["next", "next/*"], message: "runtime/ is framework-free: no Next.js imports." },
  { group: ["react", "react/*", "react-dom", "react-dom/*"], message: "runtime/ is framework-free: no React imports." },
  { group: ["@trpc/*"], message: "runtime/ is framework-free: no tRPC imports." },
  { group: ["@prisma/*", "prisma", ".prisma/*"], message: "runtime/ is framework-free: no Prisma imports." },
  {
    group: ["**/server/**", "**/app/**", "**/components/**", "@/server/*", "@/app/*", "@/components/*"],
    message: "runtime/ must not import from server/, app/ or components/.",
  },
];

export default tseslint.config(
  { ignores: ["node_modules/**", ".next/**", ".rath/**", "server/db/generated/**", "next-env.d.ts", "test-results/**", "playwright-report/**"] },
  {
    files: ["**/*.ts", "**/*.tsx", "**/*.mts"],
    languageOptions: { parser: tseslint.parser },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {},
  },
  {
    files: ["runtime/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: frameworkImports }] },
  },
  {
    files: ["runtime/workflow-spec/**/*.ts"],
    ignores: ["runtime/workflow-spec/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...frameworkImports,
            {
              group: builtinModules.flatMap((name) => [name, `node:${name}`]),
              message: "runtime/workflow-spec/ runs in the browser too: no Node built-ins (hashing lives in server/engine/spec).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**", "@/server/*"],
              allowTypeImports: true,
              message: "components/ may import server types only (import type).",
            },
          ],
        },
      ],
    },
  },
  {
    // A warning while pages other engineers are rebuilding still import server/db; make it an error once none do.
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "warn",
        {
          patterns: [
            {
              group: ["**/server/db/**", "@/server/db/*"],
              message: "app/ reaches the database through server/services, not server/db.",
            },
          ],
        },
      ],
    },
  },
);
