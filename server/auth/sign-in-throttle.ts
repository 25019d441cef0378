/**
 * Slows password guessing: after `limit` failed sign-ins for one email within `windowMs`, further attempts for it
 * are refused without checking the password until the oldest failure leaves the window. Kept in memory per server
 * process (a restart forgets it); a successful sign-in clears the email's failures.
 */
import { RathError } from "../../runtime/errors";

/** Options of `createSignInThrottle`. */
export interface SignInThrottleOptions {
  limit: number;
  windowMs: number;
  now?: () => number;
}

/** The throttle's three moves. */
export interface SignInThrottle {
  /** Throws `unauthenticated` (saying when to retry) while `email` is locked out. */
  check(email: string): void;
  failed(email: string): void;
  succeeded(email: string): void;
}

/** A throttle of failed sign-ins per email. */
export function createSignInThrottle({ limit, windowMs, now = Date.now }: SignInThrottleOptions): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (email: string): number[] => {
    const cutoff = now() - windowMs;
    const kept = (failures.get(email) ?? []).filter((time) => time > cutoff);
    if (kept.length === 0) failures.delete(email);
    else failures.set(email, kept);
    return kept;
  };
  return {
    check(email) {
      const times = recent(email);
      if (times.length >= limit) {
        const minutes = Math.max(1, Math.ceil(((times[0] as number) + windowMs - now()) / 60_000));
        throw new RathError("unauthenticated", `too many failed sign-ins for ${email}; try again in ${minutes} minute${minutes === 1 ? "" : "s"}`);
      }
    },
    failed(email) {
      failures.set(email, [...recent(email), now()]);
    },
    succeeded(email) {
      failures.delete(email);
    },
  };
}

/** The server's throttle: 10 failures per email within 15 minutes. */
export const SIGN_IN_THROTTLE = createSignInThrottle({ limit: 10, windowMs: 15 * 60_000 });
