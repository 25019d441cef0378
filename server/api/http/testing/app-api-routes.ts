/**
 * Every Next.js route handler under app/api, discovered from the file system (not a hand list): its URL pattern,
 * and its exported HTTP methods, imported from the route module itself.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const API_DIRECTORY = path.join(ROOT, "app", "api");
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** A route handler as Next.js calls it. */
export type AppRouteHandler = (request: Request, segment: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** One exported method of one route file. */
export interface DiscoveredRoute {
  /** `app/api/v1/runs/[id]/route.ts`. */
  file: string;
  /** A concrete URL path for it: `[id]` -> `x`, `[...all]` -> `x/y`. */
  pathname: string;
  /** The params Next.js would pass for that path. */
  params: Record<string, string | string[]>;
  method: (typeof METHODS)[number];
  handler: AppRouteHandler;
}

function routeFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** Imports every app/api route file and lists each exported method. */
export async function discoverAppApiRoutes(): Promise<DiscoveredRoute[]> {
  const routes: DiscoveredRoute[] = [];
  for (const file of routeFiles(API_DIRECTORY).sort()) {
    const segments = path.relative(path.join(ROOT, "app"), path.dirname(file)).split(path.sep);
    const params: Record<string, string | string[]> = {};
    const concrete = segments.map((segment) => {
      const catchAll = /^\[\[?\.\.\.(\w+)\]?\]$/.exec(segment);
      if (catchAll) {
        params[catchAll[1] as string] = ["x", "y"];
        return "x/y";
      }
      const dynamic = /^\[(\w+)\]$/.exec(segment);
      if (dynamic) {
        params[dynamic[1] as string] = "x";
        return "x";
      }
      return segment;
    });
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const method of METHODS) {
      const handler = module[method];
      if (typeof handler === "function") {
        routes.push({ file: path.relative(ROOT, file), pathname: `/${concrete.join("/")}`, params, method, handler: handler as AppRouteHandler });
      }
    }
  }
  return routes;
}
