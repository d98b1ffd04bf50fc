// Failed sign-ins are budgeted per e-mail address (10 in 15 minutes), so a password cannot be
// guessed from many addresses at one account; the gateway budgets failures per client address too.

export const SIGN_IN_FAILURE_LIMIT = 10;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * Whether another attempt may run, given the failures inside the window (oldest first does not
 * matter): refused once `limit` failures are inside it, until the oldest of the most recent
 * `limit` leaves it (`retryAfterSeconds`, at least 1).
 */
export function signInThrottle(options: { failures: Date[]; now: Date; limit?: number; windowMs?: number }): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
  const limit = options.limit ?? SIGN_IN_FAILURE_LIMIT;
  const windowMs = options.windowMs ?? SIGN_IN_WINDOW_MS;
  const now = options.now.getTime();
  const recent = options.failures.map((d) => d.getTime()).filter((t) => t > now - windowMs && t <= now).sort((a, b) => b - a);
  if (recent.length < limit) return { allowed: true };
  const freesAt = recent[limit - 1]! + windowMs;
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - now) / 1000)) };
}
