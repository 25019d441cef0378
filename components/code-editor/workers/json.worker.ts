/** Monaco's JSON language worker (validation against JSON schemas), bundled by the app. */
import "monaco-editor/languages/features/json/json.worker";
