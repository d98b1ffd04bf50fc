import { describe, expect, it } from 'vitest';
import { createTestOrganization, testDatabase } from '../testing';
import { createAuthenticator } from './authenticate.service';

describe('authenticator: which keys cost a database lookup', () => {
  it('needs a lookup only for a well-formed key without a fresh cached answer', async () => {
    const db = await testDatabase();
    const org = await createTestOrganization({ db });
    const auth = createAuthenticator({ db: db.prisma, ttlMs: 60_000 });
    const unknown = '0123abcd-0123abcd-0123abcd-0123abcd';

    expect(auth.needsLookup(undefined)).toBe(false);
    expect(auth.needsLookup('')).toBe(false);
    expect(auth.needsLookup('not-a-key')).toBe(false);
    expect(auth.needsLookup(org.apiKey)).toBe(true);
    expect(auth.needsLookup(unknown)).toBe(true);

    await auth.authenticate(org.apiKey);
    await expect(auth.authenticate(unknown)).rejects.toMatchObject({ kind: 'unauthenticated', code: 'auth.invalid_key' });
    // Both answers are cached now, the valid one in any spelling.
    expect(auth.needsLookup(org.apiKey)).toBe(false);
    expect(auth.needsLookup(` ${org.apiKey.toUpperCase()} `)).toBe(false);
    expect(auth.needsLookup(unknown)).toBe(false);

    auth.invalidate();
    expect(auth.needsLookup(org.apiKey)).toBe(true);
  });
});
