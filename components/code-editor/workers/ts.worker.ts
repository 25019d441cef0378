/** Monaco's TypeScript/JavaScript language worker (types for custom tool code), bundled by the app. */
import "monaco-editor/languages/features/typescript/ts.worker";
