// Lint: typescript-eslint's type-checked recommended rules, the rules of hooks, jsx-a11y's recommended rules, and
// the rules that guard the architecture: runtime/ is framework-free, components/ never reaches into server/, and
// the workflow spec module (shared with the browser) imports no Node built-in.
import { builtinModules } from "node:module";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

const typeScriptFiles = ["**/*.ts", "**/*.tsx", "**/*.mts"];

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
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: typeScriptFiles })),
  {
    files: typeScriptFiles,
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Names starting with "_" are deliberately unused (rest-destructuring to drop a key, placeholder parameters).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // Ports (providers, stores, tools) are Promise-returning interfaces; an adapter that happens to finish
      // synchronously is still written `async` so that a throw becomes a rejection, as callers expect.
      "@typescript-eslint/require-await": "off",
    },
  },
  {
    // Tests pass methods to expect()/vi.spyOn() and read untyped JSON answers on purpose.
    files: ["**/*.test.ts", "**/*.test.tsx", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/unbound-method": "off", "@typescript-eslint/no-unsafe-assignment": "off", "@typescript-eslint/no-unsafe-return": "off" },
  },
  {
    // The rules of hooks. The React Compiler's own rules (refs, set-state-in-effect…) are left out: the app does
    // not use the compiler.
    files: ["**/*.tsx", "components/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Dialogs and inline editors move focus to their first field when they open (the WAI-ARIA dialog pattern).
      "jsx-a11y/no-autofocus": "off",
    },
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
    files: ["app/**/*.ts", "app/**/*.tsx"],
    rules: {
      "no-restricted-imports": [
        "error",
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
