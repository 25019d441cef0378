// GET /api/v1/runs/:id/events?after=N&limit=M: a page of the run's events after seq N.
import { apiRoute } from "../../../../../../server/api/http/api-route";
import { getRunEvents } from "../../../../../../server/api/http/runs-endpoints";
import { methodNotAllowed } from "../../../../../../server/api/http/method-not-allowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>({ name: "GET /api/v1/runs/:id/events" }, ({ request, context, params }) =>
  getRunEvents(params.id, new URL(request.url), async () => context),
);

/** Other methods: 405 in the JSON error shape (Next.js would answer with an empty body). */
const refused = methodNotAllowed("/api/v1/runs/:id/events", ["GET"]);
export const POST = refused;
export const PUT = refused;
export const PATCH = refused;
export const DELETE = refused;
