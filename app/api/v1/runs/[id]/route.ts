// GET /api/v1/runs/:id: status, output and error of a run.
import { createRequestContext } from "../../../../../server/api/context";
import { getRun } from "../../../../../server/api/http/runs-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(_request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return getRun(id, createRequestContext);
}
