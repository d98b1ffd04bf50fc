// When a reply loop reads again and renews its IMAP session (pure; reply-worker.service.ts and
// read-session.service.ts). A worker starts its loops together, so fixed periods would keep every
// mailbox's reads, and its new logins, in step: each minute's reads in one burst (at 1,000 mailboxes,
// a second of 53 % of a core on the `reading` benchmark) and every 20 minutes a login per mailbox at
// once. Each period is shortened by a random part instead, so the loops drift apart.

/** A kept session lives between 75 % and all of its maximum age (20 minutes: 15 to 20). */
export const SESSION_AGE_SPREAD = 0.25;
/** A loop waits for news between 80 % and all of IMAP_POLL_MS before reading anyway (60 s: 48 to 60). */
export const POLL_SPREAD = 0.2;

/** How long a session kept now lives, for `random` in [0, 1). */
export function sessionLifetimeMs(maxAgeMs: number, random: number): number {
  return maxAgeMs * (1 - SESSION_AGE_SPREAD * random);
}

/** How long a loop waits for news before reading anyway, for `random` in [0, 1). */
export function pollWaitMs(pollMs: number, random: number): number {
  return Math.round(pollMs * (1 - POLL_SPREAD * random));
}
