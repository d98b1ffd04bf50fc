import { describe, expect, it } from 'vitest';
import { hashOAuthState, newOAuthState, redirectAfterProblem, stateRefusal, withQuery } from './email-account-oauth.rules';

const allow = { publicUrl: 'https://outreach.example.com', allowedOrigins: ['https://app.example', 'http://localhost:5173'] };

describe('redirect_after', () => {
  it("may go to PUBLIC_URL's origin or an allowed one, with any path and query", () => {
    expect(redirectAfterProblem('https://outreach.example.com/settings/mailboxes?x=1', allow)).toBeNull();
    expect(redirectAfterProblem('https://app.example/', allow)).toBeNull();
    expect(redirectAfterProblem('http://localhost:5173/done', allow)).toBeNull();
  });

  it('may go nowhere else: other hosts, schemes, ports, look-alikes, credentials, relative paths', () => {
    for (const target of [
      'https://evil.example/',
      'http://outreach.example.com/', // another scheme is another origin
      'https://outreach.example.com:8443/',
      'https://outreach.example.com.evil.example/',
      'https://app.example@evil.example/',
      'https://user:pw@app.example/',
      'javascript:alert(1)',
      'data:text/html,hi',
      '//evil.example/',
      '/relative',
    ]) {
      expect(redirectAfterProblem(target, allow), target).not.toBeNull();
    }
    expect(redirectAfterProblem('https://evil.example/', allow)).toContain('https://outreach.example.com or https://app.example');
  });

  it('keeps its query when the outcome is added', () => {
    expect(withQuery('https://app.example/x?tab=1&status=old', { status: 'connected', email_account_id: 'abc' })).toBe(
      'https://app.example/x?tab=1&status=connected&email_account_id=abc',
    );
  });
});

describe('the state', () => {
  it('is 32 random bytes (base64url), stored as its SHA-256 only', () => {
    const a = newOAuthState();
    const b = newOAuthState();
    expect(a.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.state).not.toBe(b.state);
    expect(a.hash).toBe(hashOAuthState(a.state));
    expect(a.hash).not.toContain(a.state);
  });

  it('authorizes one callback of its provider before it expires', () => {
    const now = new Date('2026-01-01T10:00:00Z');
    const row = { provider: 'GOOGLE_WORKSPACE', usedAt: null, expiresAt: new Date('2026-01-01T10:05:00Z') };
    expect(stateRefusal(row, { provider: 'GOOGLE_WORKSPACE', now })).toBeNull();
    expect(stateRefusal(null, { provider: 'GOOGLE_WORKSPACE', now })).toBe('unknown');
    expect(stateRefusal(row, { provider: 'MICROSOFT365', now })).toBe('provider');
    expect(stateRefusal({ ...row, usedAt: now }, { provider: 'GOOGLE_WORKSPACE', now })).toBe('used');
    expect(stateRefusal(row, { provider: 'GOOGLE_WORKSPACE', now: new Date('2026-01-01T10:05:00Z') })).toBe('expired');
  });
});
