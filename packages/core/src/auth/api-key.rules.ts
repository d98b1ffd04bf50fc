import { createHash, randomBytes } from 'node:crypto';

/** The vendor's key format: four groups of 8 hex characters joined by `-` (128 random bits). */
export function generateApiKey(): string {
  const hex = randomBytes(16).toString('hex');
  return [0, 8, 16, 24].map((i) => hex.slice(i, i + 8)).join('-');
}

const KEY_FORMAT = /^[0-9a-f]{8}(-[0-9a-f]{8}){3}$/;

export function isWellFormedApiKey(key: string): boolean {
  return KEY_FORMAT.test(key);
}

/**
 * Keys carry 128 random bits, so a fast hash is enough: no dictionary can reach
 * them, and a per-request slow hash would only cost latency.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('hex');
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, 8);
}
