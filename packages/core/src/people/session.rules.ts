import { createHash, randomBytes } from 'node:crypto';

/** A session ends after 14 days without use, and 90 days after sign-in whatever the use. */
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 90 * 24 * 60 * 60 * 1000;
/** Use is written back at most once a minute per session (last_seen_at, the sliding expiry). */
export const SESSION_TOUCH_MS = 60 * 1000;
/** A setup link works for 7 days (a restart with no one signed up makes a new one). */
export const SETUP_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export const SESSION_COOKIE = 'outreach_session';
export const CSRF_HEADER = 'x-csrf-token';

/** 256 random bits, base64url: the cookie's value, the setup link's token. Never stored. */
export function generateSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A fast hash suffices: the token is 256 random bits no dictionary reaches. */
export function hashSecretToken(token: string): string {
  return createHash('sha256').update(token.trim()).digest('hex');
}

/** When a session used at `now` expires: 14 idle days on, never past 90 days after it began. */
export function sessionExpiry(options: { createdAt: Date; now: Date }): Date {
  return new Date(Math.min(options.now.getTime() + SESSION_IDLE_MS, options.createdAt.getTime() + SESSION_MAX_MS));
}

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;
export function isWellFormedSecretToken(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}
