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

describe('link MACs', () => {
  it('verifies its own tags only: another message, a changed tag or another key fail', () => {
    const box = createSecretBox({ key: randomBytes(32) });
    const tag = box.mac('open:0123456789abcdef01234567');
    expect(tag).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(box.verifyMac('open:0123456789abcdef01234567', tag)).toBe(true);
    expect(box.verifyMac('unsubscribe:0123456789abcdef01234567', tag)).toBe(false);
    expect(box.verifyMac('open:0123456789abcdef01234567', `${tag.slice(0, -1)}${tag.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    expect(box.verifyMac('open:0123456789abcdef01234567', tag.slice(1))).toBe(false);
    expect(createSecretBox({ key: randomBytes(32) }).verifyMac('open:0123456789abcdef01234567', tag)).toBe(false);
  });
});
