import { describe, expect, it } from 'vitest';
import { apiKeyPrefix, generateApiKey, hashApiKey, isWellFormedApiKey } from './api-key.rules';

describe('API keys', () => {
  it('are four groups of 8 hex characters joined by dashes', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey('not-a-key')).toBe(false);
  });

  it('are unique across many draws', () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
  });

  it('hash to a stable digest that does not contain the key, ignoring case and surrounding space', () => {
    const key = generateApiKey();
    const digest = hashApiKey(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(key.replace(/-/g, ''));
    expect(hashApiKey(` ${key.toUpperCase()} `)).toBe(digest);
    expect(hashApiKey(generateApiKey())).not.toBe(digest);
    expect(apiKeyPrefix(key)).toBe(key.slice(0, 8));
  });
});
