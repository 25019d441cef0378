/**
 * The program a code tool runs in a child `node` process (never in the server): it reads `{code, args}` as JSON
 * on stdin, imports the user's module from a data: URL, calls its default export with the arguments and writes
 * `marker + JSON` on stdout. The user's console output goes to stderr so it cannot corrupt the result.
 */
export const CODE_TOOL_RUNNER = `
const marker = process.env.RATH_RESULT_MARKER ?? "";
const toStderr = (...values) => process.stderr.write(values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(" ") + "\\n");
console.log = toStderr;
console.info = toStderr;
console.debug = toStderr;
const parts = [];
for await (const part of process.stdin) parts.push(part);
const { code, args } = JSON.parse(Buffer.concat(parts).toString("utf8"));
try {
  const module = await import("data:text/javascript;base64," + Buffer.from(code, "utf8").toString("base64"));
  const run = module.default;
  if (typeof run !== "function") throw new TypeError("expected the tool's code to 'export default' a function; found " + typeof run);
  const result = await run(args);
  process.stdout.write(marker + JSON.stringify({ ok: true, result: result === undefined ? null : result }));
} catch (error) {
  const name = error && typeof error === "object" && "name" in error ? String(error.name) : "Error";
  const message = error && typeof error === "object" && "message" in error ? String(error.message) : String(error);
  process.stdout.write(marker + JSON.stringify({ ok: false, name, message }));
  process.exitCode = 1;
}
`;
