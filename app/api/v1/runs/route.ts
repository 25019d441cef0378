// POST /api/v1/runs: start a run (JSON {workflowId | spec, input, priority?}, Idempotency-Key header honoured).
import { createRequestContext } from "../../../../server/api/context";
import { postRun } from "../../../../server/api/http/runs-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  return postRun(request, createRequestContext);
}
