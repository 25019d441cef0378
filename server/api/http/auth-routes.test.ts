/**
 * The routes under app/api/auth, called as Next.js calls them, on a real SQLite file: the first-run account is
 * created only on loopback while none exists and signs the person in; sign-in sets a session cookie that the
 * API accepts until sign-out; wrong credentials, malformed bodies and cross-site posts are refused with the JSON
 * error shape.
 */
import { describe, expect, it } from "vitest";
import { POST as setup } from "../../../app/api/auth/setup/route";
import { POST as signIn } from "../../../app/api/auth/sign-in/route";
import { POST as signOut } from "../../../app/api/auth/sign-out/route";
import { GET as trpcGet } from "../../../app/api/trpc/[trpc]/route";
import { useTemporaryStudio } from "../testing/temporary-studio";

const STUDIO = "http://127.0.0.1:3000";

function post(pathname: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${STUDIO}${pathname}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

function cookieFrom(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";", 1)[0]!)
    .join("; ");
}

async function me(cookie: string): Promise<{ status: number; body: unknown }> {
  const response = await trpcGet(new Request(`${STUDIO}/api/trpc/account.me`, { headers: { cookie } }));
  return { status: response.status, body: await response.json() };
}

async function errorOf(response: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

describe("app/api/auth routes", () => {
  useTemporaryStudio("rath-auth-routes", { RATH_IN_PROCESS_WORKER: "0" });

  const first = { email: "ada@example.com", name: "Ada", password: "analytical-engine" };

  it("the first-run account: 404 off loopback; on loopback it is created once, signed in, then 404", async () => {
    Object.assign(process.env, { RATH_HOST: "0.0.0.0", RATH_AUTH: "" });
    expect(await errorOf(await setup(post("/api/auth/setup", first)))).toMatchObject({ status: 404, code: "not_found", message: expect.stringContaining("only on a loopback address") });

    Object.assign(process.env, { RATH_HOST: "127.0.0.1", RATH_AUTH: "required" });
    expect(await errorOf(await setup(post("/api/auth/setup", { ...first, password: "short" })))).toMatchObject({ status: 400, message: expect.stringContaining("password must be at least 8") });
    const created = await setup(post("/api/auth/setup", first));
    expect(created.status).toBe(201);
    expect(await created.clone().json()).toEqual({ user: { id: expect.any(String), email: "ada@example.com", name: "Ada" } });
    const cookie = cookieFrom(created);
    expect(cookie).toMatch(/^rath\.session_token=/);
    expect(await me(cookie)).toMatchObject({ status: 200, body: { result: { data: { kind: "user", user: { email: "ada@example.com" } } } } });

    expect(await errorOf(await setup(post("/api/auth/setup", { ...first, email: "eve@example.com" })))).toMatchObject({ status: 404, message: expect.stringContaining("already has an account") });
  });

  it("sign-in: wrong credentials 401 with one message, a malformed body 400, a cross-site post 403; sign-out ends the session", async () => {
    Object.assign(process.env, { RATH_HOST: "127.0.0.1", RATH_AUTH: "required" });
    expect(await errorOf(await signIn(post("/api/auth/sign-in", { email: "ada@example.com", password: "wrong-password" })))).toEqual({ status: 401, code: "unauthenticated", message: "wrong email or password" });
    expect(await errorOf(await signIn(post("/api/auth/sign-in", { email: "ada@example.com" })))).toMatchObject({ status: 400, message: "password is required" });
    const crossSite = new Request(`${STUDIO}/api/auth/sign-in`, { method: "POST", headers: { origin: "https://evil.example", "content-type": "text/plain" }, body: JSON.stringify(first) });
    expect((await errorOf(await signIn(crossSite))).status).toBe(403);

    const signedIn = await signIn(post("/api/auth/sign-in", { email: "ADA@example.com", password: first.password }, { origin: STUDIO }));
    expect(signedIn.status).toBe(200);
    const cookie = cookieFrom(signedIn);
    expect((await me(cookie)).status).toBe(200);

    const signedOut = await signOut(post("/api/auth/sign-out", {}, { cookie }));
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers.getSetCookie().join("\n")).toMatch(/rath\.session_token=;/);
    expect((await me(cookie)).status).toBe(401);
    expect((await signOut(post("/api/auth/sign-out", {}))).status).toBe(401);
  });
});
