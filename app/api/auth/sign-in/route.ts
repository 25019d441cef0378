// POST /api/auth/sign-in {email, password}: a session cookie for the person (public: it is how one gets credentials).
import { publicApiRoute } from "../../../../server/api/http/public-api-route";
import { signInEndpoint } from "../../../../server/auth/auth-endpoints";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = publicApiRoute({ name: "POST /api/auth/sign-in" }, ({ request, services }) => signInEndpoint(request, services.database));
