// tRPC for share pages at /api/share/<token>/trpc/<procedure>: the link's run, read-only; see server/api/README.md.
import { requestServices } from "../../../../../../server/api/context";
import { shareTrpcRoute } from "../../../../../../server/api/http/share-trpc";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handler = shareTrpcRoute(requestServices);

export { handler as GET, handler as POST };
