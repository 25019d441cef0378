// GET /api/v1/runs/:id: status, output and error of a run.
import { apiRoute } from "../../../../../server/api/http/api-route";
import { getRun } from "../../../../../server/api/http/runs-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const GET = apiRoute<{ id: string }>({ name: "GET /api/v1/runs/:id" }, ({ context, params }) => getRun(params.id, async () => context));
