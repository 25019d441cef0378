// POST /api/v1/imports?fileName=NAME: import a run bundle sent as the raw JSONL body (streamed, size-limited).
import { apiRoute } from "../../../../server/api/http/api-route";
import { BUNDLE_CONTENT_TYPES, postImport } from "../../../../server/api/http/import-endpoint";
import { methodNotAllowed } from "../../../../server/api/http/method-not-allowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute({ name: "POST /api/v1/imports", contentTypes: BUNDLE_CONTENT_TYPES, bodyLimit: "streamed" }, ({ request, context }) =>
  postImport(request, context),
);

/** Other methods: 405 in the JSON error shape (Next.js would answer with an empty body). */
const refused = methodNotAllowed("/api/v1/imports", ["POST"]);
export const GET = refused;
export const PUT = refused;
export const PATCH = refused;
export const DELETE = refused;
