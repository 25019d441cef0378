// tRPC over HTTP (and SSE for subscriptions) at /api/trpc/<procedure>; see server/api/README.md.
import { createRequestContext } from "../../../../server/api/context";
import { handleTrpcRequest } from "../../../../server/api/http/trpc-handler";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function handler(request: Request): Promise<Response> {
  return handleTrpcRequest(request, createRequestContext);
}

export { handler as GET, handler as POST };
