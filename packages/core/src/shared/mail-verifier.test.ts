import { describe, expect, it } from 'vitest';
import { classifyMailFailure, mailFailureMessage, mailLoginError, MAIL_FAILURES } from './mail-verifier';
import { OutboundTargetRefused } from './outbound-guard';

const REMOTE = 'Dovecot ready. secret-internal-host.corp';
const error = (fields: Record<string, unknown>) => Object.assign(new Error(`something: ${REMOTE}`), { response: REMOTE }, fields);

describe('classifyMailFailure', () => {
  it.each([
    ['a refused private target', new OutboundTargetRefused('refused', 'h', '10.0.0.1'), 'not_allowed'],
    ['a host that does not resolve', new OutboundTargetRefused('cannot resolve', 'h', null), 'unresolved'],
    ['nodemailer EDNS', error({ code: 'EDNS', originalCode: 'ENOTFOUND' }), 'unresolved'],
    ['nodemailer EAUTH', error({ code: 'EAUTH', responseCode: 535 }), 'auth'],
    ['an SMTP 535 without a code', error({ responseCode: 535 }), 'auth'],
    ['imapflow authentication failure', error({ authenticationFailed: true }), 'auth'],
    ['IMAP AUTHENTICATIONFAILED', error({ serverResponseCode: 'AUTHENTICATIONFAILED' }), 'auth'],
    ['nodemailer ETLS', error({ code: 'ETLS' }), 'tls'],
    ['a certificate refused', error({ code: 'ESOCKET', originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT' }), 'tls'],
    ['an OpenSSL error', error({ code: 'ERR_SSL_WRONG_VERSION_NUMBER' }), 'tls'],
    ['nodemailer ETIMEDOUT', error({ code: 'ETIMEDOUT' }), 'timeout'],
    ['imapflow greeting timeout', error({ code: 'GREETING_TIMEOUT' }), 'timeout'],
    ['imapflow connection timeout', error({ code: 'CONNECT_TIMEOUT' }), 'timeout'],
    ['an invalid SMTP greeting', error({ code: 'EPROTOCOL', command: 'CONN' }), 'protocol'],
    ['an IMAP parser failure', error({ code: 'ParserError' }), 'protocol'],
    ['a refused TCP connection', error({ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }), 'connect'],
    ['a raw ECONNRESET', error({ code: 'ECONNRESET' }), 'connect'],
    ['anything else', new Error(REMOTE), 'connect'],
    ['not even an Error', REMOTE, 'connect'],
  ])('%s', (_name, failure, expected) => {
    expect(classifyMailFailure(failure)).toBe(expected);
  });
});

describe('mail failure messages', () => {
  it('are one fixed sentence per failure and protocol, with nothing from the server', () => {
    const all = MAIL_FAILURES.flatMap((f) => [mailFailureMessage('SMTP', f), mailFailureMessage('IMAP', f)]);
    expect(new Set(all).size).toBe(all.length);
    expect(mailFailureMessage('SMTP', 'auth')).toBe('SMTP login refused: the server did not accept the username or password');
    expect(mailFailureMessage('IMAP', 'timeout')).toBe('IMAP server unreachable: timed out');
    expect(mailFailureMessage('SMTP', 'tls')).toBe('SMTP server unreachable: TLS handshake failed');
    expect(mailFailureMessage('SMTP', 'connect')).toBe('SMTP server unreachable: could not connect');
    for (const m of all) expect(m).toMatch(/^(SMTP|IMAP) (login refused|server unreachable|server not allowed): [^:]+$/);
  });

  it('a login error says auth for credentials and refused targets, connect otherwise, and never quotes the server', () => {
    expect(mailLoginError('IMAP', error({ authenticationFailed: true })).reason).toBe('auth');
    expect(mailLoginError('SMTP', new OutboundTargetRefused('refused', 'h', '127.0.0.1')).reason).toBe('auth');
    const greeting = mailLoginError('SMTP', error({ code: 'EPROTOCOL' }));
    expect([greeting.reason, greeting.message]).toEqual(['connect', 'SMTP server unreachable: it did not answer as an SMTP server']);
    expect(greeting.message).not.toContain('Dovecot');
  });
});
