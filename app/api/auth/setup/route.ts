// POST /api/auth/setup {email, name, password}: the first account, only on loopback while none exists (else 404).
import { publicApiRoute } from "../../../../server/api/http/public-api-route";
import { setupEndpoint } from "../../../../server/auth/auth-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = publicApiRoute({ name: "POST /api/auth/setup" }, ({ request, services, policy }) => setupEndpoint(request, services.database, policy));
