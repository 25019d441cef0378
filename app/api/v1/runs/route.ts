// POST /api/v1/runs: start a run (JSON {workflowId | spec, input, priority?}, Idempotency-Key header honoured).
import { apiRoute } from "../../../../server/api/http/api-route";
import { postRun } from "../../../../server/api/http/runs-endpoints";
import { methodNotAllowed } from "../../../../server/api/http/method-not-allowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute({ name: "POST /api/v1/runs" }, ({ request, context }) => postRun(request, async () => context));

/** Other methods: 405 in the JSON error shape (Next.js would answer with an empty body). */
const refused = methodNotAllowed("/api/v1/runs", ["POST"]);
export const GET = refused;
export const PUT = refused;
export const PATCH = refused;
export const DELETE = refused;
