import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box';

describe('secret box', () => {
  it('round-trips, never repeats a ciphertext, hides the plaintext and refuses tampering or another key', () => {
    const box = createSecretBox({ key: randomBytes(32) });
    const a = box.encrypt('hunter2 ✓');
    const b = box.encrypt('hunter2 ✓');
    expect(a).not.toBe(b);
    expect(a).not.toContain('hunter2');
    expect(box.decrypt(a)).toBe('hunter2 ✓');
    const parts = a.split(':');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => box.decrypt(parts.join(':'))).toThrow();
    expect(() => createSecretBox({ key: randomBytes(32) }).decrypt(a)).toThrow();
    expect(() => createSecretBox({ key: randomBytes(16) })).toThrow('32 bytes');
  });
});
