// tRPC over HTTP (and SSE for subscriptions) at /api/trpc/<procedure>; see server/api/README.md.
import { requestServices } from "../../../../server/api/context";
import { handleTrpcRequest } from "../../../../server/api/http/trpc-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function handler(request: Request): Promise<Response> {
  return handleTrpcRequest(request, { services: requestServices });
}

export { handler as GET, handler as POST };
