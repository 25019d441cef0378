/**
 * Export a run (bundle, or reference-dialect session files), import a bundle (validated, all or nothing), and
 * import dropped files (a bundle, or reference session / partial / lineage files) as one read-only run, and
 * export a run as OTLP/JSON traces (OpenTelemetry GenAI conventions).
 */
import { z } from "zod";
import { importFiles, ImportFilesRequest } from "../../services/file-import";
import { exportRun, ExportRunRequest, importBundle, ImportBundleRequest } from "../../services/transfer-service";
import { toOtlpJson } from "../../services/otlp-json";
import { loadRunTrace } from "../../services/run-trace";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

/** The `transfer` router. */
export const transferRouter = router({
  exportRun: procedure.input(strictInput(ExportRunRequest)).query(({ ctx, input }) => exportRun(ctx.database, input)),
  importBundle: procedure.input(strictInput(ImportBundleRequest)).mutation(({ ctx, input }) => importBundle(ctx.database, input)),
  exportTrace: procedure.input(strictInput(z.object({ runId: z.string().min(1) }))).query(async ({ ctx, input }) => toOtlpJson(await loadRunTrace(ctx.database, input.runId))),
  importFiles: procedure.input(strictInput(ImportFilesRequest)).mutation(({ ctx, input }) => importFiles(ctx.database, input)),
});
