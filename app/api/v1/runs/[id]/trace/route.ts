// GET /api/v1/runs/:id/trace: the run as OTLP/JSON traces (OpenTelemetry GenAI semantic conventions).
import { apiRoute } from "../../../../../../server/api/http/api-route";
import { getRunTrace } from "../../../../../../server/api/http/runs-endpoints";
import { methodNotAllowed } from "../../../../../../server/api/http/method-not-allowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>({ name: "GET /api/v1/runs/:id/trace" }, ({ context, params }) => getRunTrace(params.id, async () => context));

/** Other methods: 405 in the JSON error shape (Next.js would answer with an empty body). */
const refused = methodNotAllowed("/api/v1/runs/:id/trace", ["GET"]);
export const POST = refused;
export const PUT = refused;
export const PATCH = refused;
export const DELETE = refused;
