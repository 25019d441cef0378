/** Monaco's base editor worker, bundled by the app (never fetched from a CDN). */
import "monaco-editor/editor/editor.worker";
