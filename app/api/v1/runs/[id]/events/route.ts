// GET /api/v1/runs/:id/events?after=N&limit=M: a page of the run's events after seq N.
import { createRequestContext } from "../../../../../../server/api/context";
import { getRunEvents } from "../../../../../../server/api/http/runs-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  const { id } = await params;
  return getRunEvents(id, new URL(request.url), createRequestContext);
}
