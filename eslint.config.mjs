// Lint rules that guard the architecture: runtime/ is framework-free, components/ never reaches into server/.
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
);
