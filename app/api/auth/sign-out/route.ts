// POST /api/auth/sign-out: ends the caller's session and clears its cookie.
import { apiRoute } from "../../../../server/api/http/api-route";
import { signOutEndpoint } from "../../../../server/auth/auth-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = apiRoute({ name: "POST /api/auth/sign-out" }, ({ request, context }) => signOutEndpoint(request, context.database));
