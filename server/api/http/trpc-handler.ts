/**
 * Serves the tRPC router over the Fetch API (queries, mutations, and subscriptions as server-sent events), behind
 * the same door as the plain HTTP routes (api-door.ts): host, cross-site and content-type checks (only
 * `application/json` bodies: tRPC's FormData and octet-stream inputs are refused), the body size limit
 * (RATH_MAX_REQUEST_BYTES; RATH_MAX_IMPORT_BYTES for `transfer.importBundle` and `transfer.importFiles`), and the principal (401 without
 * one, before any procedure is looked up — a subscription's stream would otherwise start with 200). A refused
 * request gets tRPC's own error envelope — one error per procedure of a batch — with the mapped HTTP status, so
 * tRPC clients read it like any other error. Inside, the `requireAccess` middleware (trpc.ts) checks every
 * procedure again.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { getTRPCErrorShape } from "@trpc/server";
import { currentAccessPolicy, type AccessPolicy } from "../../auth/access-policy";
import { payloadLimits } from "../../services/payload-limits";
import { mapError, toTRPCError } from "../errors";
import { appRouter } from "../root";
import { jsonRequestLimit } from "./admit-request";
import { passDoor, type AdmittedCall, type ApiServices, type DoorOptions } from "./api-door";
import type { BodyLimit } from "./bounded-body";

/** Where the Next.js route mounts tRPC. */
export const TRPC_ENDPOINT = "/api/trpc";

/** The procedure paths a tRPC URL names (`/api/trpc/a.b,c.d` -> ["a.b", "c.d"]). */
export function procedurePathsOf(url: URL, endpoint: string = TRPC_ENDPOINT): string[] {
  const rest = decodeURIComponent(url.pathname.slice(endpoint.length)).replace(/^\/+|\/+$/g, "");
  return url.searchParams.get("batch") === "1" ? rest.split(",") : [rest];
}

function bodyLimitFor(paths: readonly string[]): BodyLimit {
  if (paths.length === 1 && (paths[0] === "transfer.importBundle" || paths[0] === "transfer.importFiles")) {
    return { bytes: payloadLimits().importBytes, what: "the run bundle", variable: "RATH_MAX_IMPORT_BYTES" };
  }
  return jsonRequestLimit();
}

type ProcedureType = "query" | "mutation" | "subscription";

function procedureTypeOf(path: string): ProcedureType | "unknown" {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: ProcedureType } } | undefined>;
  return Object.hasOwn(procedures, path) ? (procedures[path]?._def.type ?? "unknown") : "unknown";
}

/** tRPC's error envelope for a request refused before any procedure ran: one error per named procedure. */
export function trpcRefusal(request: Request, error: unknown, endpoint: string = TRPC_ENDPOINT): Response {
  const url = new URL(request.url);
  const paths = procedurePathsOf(url, endpoint);
  const mapped = mapError(error, paths.join(","));
  const envelopes = paths.map((path) => ({
    error: getTRPCErrorShape({ config: appRouter._def._config, error: toTRPCError(error, path), type: procedureTypeOf(path), path, input: undefined, ctx: undefined }),
  }));
  const body = url.searchParams.get("batch") === "1" ? envelopes : envelopes[0];
  return new Response(JSON.stringify(body), {
    status: mapped.httpStatus,
    headers: { "content-type": "application/json", "cache-control": "no-store", vary: "trpc-accept, accept" },
  });
}

/** Options of `handleTrpcRequest`. */
export interface TrpcRequestOptions {
  /** Opens the database and executor of the request. */
  services: () => Promise<ApiServices>;
  /** The access policy (default: this process's, from the environment). */
  policy?: AccessPolicy;
  endpoint?: string;
  /** Who is calling, when the route names its own credential (api-door.ts `DoorOptions.principal`). */
  principal?: DoorOptions["principal"];
}

/** Handles one tRPC request: admits it, then runs the named procedures. */
export async function handleTrpcRequest(request: Request, options: TrpcRequestOptions): Promise<Response> {
  const endpoint = options.endpoint ?? TRPC_ENDPOINT;
  let admitted: AdmittedCall;
  try {
    admitted = await passDoor(request, {
      policy: options.policy ?? currentAccessPolicy(),
      services: options.services,
      bodyLimit: bodyLimitFor(procedurePathsOf(new URL(request.url), endpoint)),
      ...(options.principal === undefined ? {} : { principal: options.principal }),
    });
  } catch (error) {
    return trpcRefusal(request, error, endpoint);
  }
  // A query may come as POST (the client's method override, for inputs too long for a URL): it passed the door
  // above like any POST (same origin, JSON, within the body limit).
  return fetchRequestHandler({ endpoint, req: admitted.request, router: appRouter, allowMethodOverride: true, createContext: () => Promise.resolve(admitted.context) });
}
