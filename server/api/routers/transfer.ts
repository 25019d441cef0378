/** Export a run (bundle, or reference-dialect session files) and import a bundle (validated, all or nothing). */
import { exportRun, ExportRunRequest, importBundle, ImportBundleRequest } from "../../services/transfer-service";
import { procedure, router } from "../trpc";
import { strictInput } from "../strict-input";

/** The `transfer` router. */
export const transferRouter = router({
  exportRun: procedure.input(strictInput(ExportRunRequest)).query(({ ctx, input }) => exportRun(ctx.database, input)),
  importBundle: procedure.input(strictInput(ImportBundleRequest)).mutation(({ ctx, input }) => importBundle(ctx.database, input)),
});
