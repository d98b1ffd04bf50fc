import { describe, expect, it } from 'vitest';
import { domainsOf, healthReasons, loginFailureField, mailboxesOfCsv, securityOfPort, vitalsFixes, type HealthInputs } from './mailbox.rules';

const healthy: HealthInputs = {
  status: 'ACTIVE',
  imapFailures: 0,
  sent7d: 0,
  replied7d: 0,
  bounced7d: 0,
  complaints7d: null,
  warmupInbox7d: 0,
  warmupSpam7d: 0,
  warmupPromotions7d: 0,
  warmupMissing7d: 0,
  spf: null,
  dkim: null,
  dmarc: null,
};

describe('what lowered a health score', () => {
  it('names nothing for a mailbox with nothing against it, and says why a disconnected one scores 0', () => {
    expect(healthReasons(healthy)).toEqual([]);
    expect(healthReasons({ ...healthy, status: 'DISCONNECTED' })).toEqual([expect.stringMatching(/cannot send/)]);
  });

  it('tells each cost as the server counts it, the worst first', () => {
    const reasons = healthReasons({ ...healthy, sent7d: 50, bounced7d: 1, dmarc: false, spf: true, imapFailures: 2, warmupInbox7d: 8, warmupSpam7d: 2 });
    expect(reasons).toEqual([
      '1 of 50 sends of the last 7 days bounced (−20)',
      'Its inbox cannot be read: replies and bounces go unseen (−20)',
      'No reply to its 50 sends of the last 7 days (−10)',
      '2 of 10 warmup e-mails landed in spam or went missing (−10)',
      'Its domain has no DMARC record (−5)',
    ]);
  });
});

describe('the field a failed login check concerns', () => {
  it('reads it from the fixed sentences of the add operation', () => {
    expect(loginFailureField('IMAP login refused: the server did not accept the username or password')).toBe('imapPassword');
    expect(loginFailureField('SMTP server unreachable: timed out')).toBe('smtpHost');
    expect(loginFailureField('already connected')).toBe('email');
    expect(loginFailureField('something else')).toBeNull();
  });

  it('derives the security from the port', () => {
    expect(securityOfPort('smtp', 465)).toBe('ssl');
    expect(securityOfPort('smtp', '587')).toBe('starttls');
    expect(securityOfPort('imap', 993)).toBe('ssl');
  });
});

describe('domain vitals', () => {
  it('says what to publish for each missing record', () => {
    const fixes = vitalsFixes({ domain: 'acme.test', spf: true, dkim: true, dmarc: false, mx: true });
    expect(fixes).toEqual([expect.stringContaining('_dmarc.acme.test')]);
    expect(domainsOf(['a@Acme.test', 'b@acme.test', 'c@other.test'])).toEqual(['acme.test', 'other.test']);
  });
});

describe('a CSV of mailboxes', () => {
  it('reads columns by name in any case, defaults usernames to the address, and names what a row lacks', () => {
    const rows = mailboxesOfCsv([
      { Email: 'a@acme.test', 'SMTP Host': 'smtp.acme.test', smtp_port: '465', smtp_password: 'x', imap_host: 'imap.acme.test', imap_port: '993', imap_password: 'y', daily_limit: '40' },
      { email: 'b@acme.test', smtp_host: 'smtp.acme.test', smtp_port: 'abc', smtp_password: 'x', imap_host: 'h', imap_port: '993', imap_password: 'y' },
      { email: 'c@acme.test', smtp_host: '', smtp_port: '465' },
    ]);
    expect(rows[0]).toEqual({
      row: 2,
      email: 'a@acme.test',
      mailbox: { email: 'a@acme.test', smtpHost: 'smtp.acme.test', smtpPort: 465, smtpUsername: 'a@acme.test', smtpPassword: 'x', imapHost: 'imap.acme.test', imapPort: 993, imapUsername: 'a@acme.test', imapPassword: 'y', dailyLimit: 40 },
    });
    expect(rows[1]).toEqual({ row: 3, email: 'b@acme.test', problem: 'smtp_port must be a whole number' });
    expect(rows[2]).toEqual({ row: 4, email: 'c@acme.test', problem: 'missing smtp_host, smtp_password, imap_host, imap_port, imap_password' });
  });
});
