// POST /api/v1/runs: start a run (JSON {workflowId | spec, input, priority?}, Idempotency-Key header honoured).
import { apiRoute } from "../../../../server/api/http/api-route";
import { postRun } from "../../../../server/api/http/runs-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute({ name: "POST /api/v1/runs" }, ({ request, context }) => postRun(request, async () => context));
