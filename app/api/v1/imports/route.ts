// POST /api/v1/imports?fileName=NAME: import a run bundle sent as the raw JSONL body (streamed, size-limited).
import { apiRoute } from "../../../../server/api/http/api-route";
import { BUNDLE_CONTENT_TYPES, postImport } from "../../../../server/api/http/import-endpoint";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute({ name: "POST /api/v1/imports", contentTypes: BUNDLE_CONTENT_TYPES, bodyLimit: "streamed" }, ({ request, context }) =>
  postImport(request, context),
);
