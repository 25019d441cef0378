#!/usr/bin/env node
// Starts Next.js (`start` or `dev`) on the address RATH_HOST names, 127.0.0.1 unless the user sets another, and
// hands that address to the server through RATH_HOST so it knows whether sign-in is needed (server/auth/
// access-policy.ts: loopback without sign-in, anything else with). `next start` alone listens on every
// interface; this is why `npm start`, `npm run studio` and `npm run dev` go through here.
//
//   node bin/rath-serve.mjs start [--port 3000] [other next start options]
//   RATH_HOST=0.0.0.0 node bin/rath-serve.mjs start     (sign-in required)
//
// An idle keep-alive connection stays open 65 s (Node's default is 5 s) unless --keepAliveTimeout says otherwise.
// A client that pools connections (a browser, Playwright's request context, a proxy in front; these commonly keep an
// idle connection up to 60 s) otherwise races the server's close: it sends on the socket just as the server ends it,
// and the request fails with ECONNRESET.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import os from "node:os";

const MODES = new Set(["start", "dev"]);
const HOST_FLAGS = new Set(["-H", "--hostname"]);
const KEEP_ALIVE_MS = "65000";

function fail(message) {
  process.stderr.write(`rath-serve: ${message}\n`);
  process.exit(2);
}

const [mode, ...rest] = process.argv.slice(2);
if (!MODES.has(mode)) fail(`usage: rath-serve.mjs start|dev [next options]; found ${JSON.stringify(mode ?? "")}`);

// -H / --hostname on the command line wins over RATH_HOST, like any explicit flag; either way the server learns it.
let host = process.env.RATH_HOST?.trim() || "127.0.0.1";
const forwarded = [];
for (let index = 0; index < rest.length; index += 1) {
  const argument = rest[index];
  const inline = /^(-H|--hostname)=(.*)$/.exec(argument);
  if (inline) {
    host = inline[2];
  } else if (HOST_FLAGS.has(argument)) {
    if (rest[index + 1] === undefined) fail(`${argument} needs an address`);
    host = rest[index + 1];
    index += 1;
  } else {
    forwarded.push(argument);
  }
}
if (host.trim() === "") fail("the host is empty; set RATH_HOST to an address such as 127.0.0.1 or 0.0.0.0");

// `next dev` has no --keepAliveTimeout option.
const keepAlive = mode === "start" && !forwarded.some((argument) => /^--keepAliveTimeout(=|$)/.test(argument)) ? ["--keepAliveTimeout", KEEP_ALIVE_MS] : [];
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, mode, "--hostname", host, ...keepAlive, ...forwarded], {
  stdio: "inherit",
  env: { ...process.env, RATH_HOST: host },
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] ?? 0)));
