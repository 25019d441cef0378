// POST /api/v1/runs/:id/fork: a new run forked from a session of run :id at a chunk (JSON {sessionId, chunkIndex, edits?}; Idempotency-Key honoured).
import { apiRoute } from "../../../../../../server/api/http/api-route";
import { postRunFork } from "../../../../../../server/api/http/runs-endpoints";
import { methodNotAllowed } from "../../../../../../server/api/http/method-not-allowed";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute<{ id: string }>({ name: "POST /api/v1/runs/:id/fork" }, ({ request, context, params }) => postRunFork(params.id, request, async () => context));

/** Other methods: 405 in the JSON error shape (Next.js would answer with an empty body). */
const refused = methodNotAllowed("/api/v1/runs/:id/fork", ["POST"]);
export const GET = refused;
export const PUT = refused;
export const PATCH = refused;
export const DELETE = refused;
