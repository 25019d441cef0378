/** Access policies for tests, made the way the server makes them: from an environment. */
import { accessPolicyFromEnvironment, type AccessPolicy } from "../access-policy";

/** A studio on 127.0.0.1 without sign-in (the default of `npm run studio`). */
export function loopbackPolicy(): AccessPolicy {
  return accessPolicyFromEnvironment({ RATH_HOST: "127.0.0.1" });
}

/** A studio that requires sign-in (RATH_AUTH=required on loopback, as the e2e sign-in server runs). */
export function signInPolicy(): AccessPolicy {
  return accessPolicyFromEnvironment({ RATH_HOST: "127.0.0.1", RATH_AUTH: "required" });
}
