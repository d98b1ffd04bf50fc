import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, SCRYPT_PARAMS, verifyPassword } from './password.rules';

describe('password hashing', () => {
  it('verifies the password it hashed and nothing else, with a fresh salt each time', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(new RegExp(`^scrypt\\$${SCRYPT_PARAMS.N}\\$8\\$1\\$[A-Za-z0-9+/=]{24}\\$[A-Za-z0-9+/=]{44}$`));
    expect(hash).not.toContain('correct horse');
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    expect(await verifyPassword('', hash)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
  });

  it('reads the parameters stored with the hash, so they can change', async () => {
    const cheap = await hashPassword('a long enough password', { N: 2 ** 10, r: 8, p: 1 });
    expect(cheap.startsWith('scrypt$1024$8$1$')).toBe(true);
    expect(await verifyPassword('a long enough password', cheap)).toBe(true);
  });

  it('refuses malformed or absurd encodings without throwing', async () => {
    for (const bad of ['', 'plain', 'bcrypt$1$2$3$4$5', 'scrypt$x$8$1$c2FsdA==$aGFzaA==', `scrypt$${2 ** 30}$8$1$c2FsdHNhbHRzYWx0c2FsdA==$${'A'.repeat(44)}`]) {
      expect(await verifyPassword('whatever password', bad)).toBe(false);
    }
  });

  it('asks for 10 characters or more (counted as characters, not UTF-16 units)', () => {
    expect(passwordProblem('123456789')).toBe('must be at least 10 characters');
    expect(passwordProblem('1234567890')).toBeNull();
    expect(passwordProblem('😀'.repeat(9))).toBe('must be at least 10 characters');
    expect(passwordProblem('x'.repeat(1025))).toBe('must be at most 1024 characters');
  });
});
