import { createHash, randomBytes } from 'node:crypto';

export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** 256 random bits, base64url: shown once to the inviter, never stored. */
export function generateInviteToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A fast hash suffices: the token is 256 random bits no dictionary reaches. */
export function hashInviteToken(token: string): string {
  return createHash('sha256').update(token.trim()).digest('hex');
}
