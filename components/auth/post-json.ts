/** POSTs JSON to one of the studio's auth routes and returns the error message of a refusal (null on success). */

/** The API's JSON error shape. */
interface ErrorBody {
  error?: { message?: unknown };
}

/** Sends `body`; resolves to null on 2xx, else to the server's message (or a plain one when it sent none). */
export async function postJson(url: string, body: unknown): Promise<string | null> {
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), credentials: "same-origin" });
  } catch {
    return "the studio did not answer; check that it is running and try again";
  }
  if (response.ok) return null;
  const parsed = (await response.json().catch(() => null)) as ErrorBody | null;
  const message = parsed?.error?.message;
  return typeof message === "string" && message !== "" ? message : `the studio answered ${response.status}`;
}
