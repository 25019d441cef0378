/**
 * POST /api/v1/imports: imports a run bundle (the JSONL a `rath` export wrote) sent as the raw request body, so a
 * bundle of up to RATH_MAX_IMPORT_BYTES (100 MiB by default) never has to fit into a JSON string. The body is read
 * while it streams and cut off past the limit (413, nothing stored); then the bundle is parsed completely and
 * stored in one transaction (transfer-service.ts): 201 with the new run, or 400 `invalid_file` naming the line.
 */
import { z } from "zod";
import { importBundle } from "../../services/transfer-service";
import { payloadLimits } from "../../services/payload-limits";
import type { ApiServices } from "./api-door";
import { readBoundedText } from "./bounded-body";
import { jsonResponse } from "./json-response";

/** Media types the import accepts for the bundle body. */
export const BUNDLE_CONTENT_TYPES: readonly string[] = ["application/x-ndjson", "application/jsonl", "application/octet-stream"];

const ImportQuery = z.object({ fileName: z.string().min(1).max(300).default("bundle.jsonl") });

/** Reads the bundle within the import limit and imports it. Errors are thrown (the route wrapper maps them). */
export async function postImport(request: Request, context: ApiServices): Promise<Response> {
  const { fileName } = ImportQuery.parse({ fileName: new URL(request.url).searchParams.get("fileName") ?? undefined });
  const content = await readBoundedText(request, { bytes: payloadLimits().importBytes, what: "the run bundle", variable: "RATH_MAX_IMPORT_BYTES" });
  const imported = await importBundle(context.database, { content, fileName });
  return jsonResponse(201, imported, { location: `/api/v1/runs/${imported.runId}` });
}
