// Pure rules of the mailbox screens: what lowered a health score (the server's rule,
// docs/api.md "Mailbox health", told in words), which form field a failed login check
// concerns, what to fix in a domain's DNS, and the rows of a CSV of mailboxes.

export interface HealthInputs {
  status: string;
  imapFailures: number;
  sent7d: number;
  replied7d: number;
  bounced7d: number;
  complaints7d?: number | null;
  warmupInbox7d: number;
  warmupSpam7d: number;
  warmupPromotions7d: number;
  warmupMissing7d: number;
  spf?: boolean | null;
  dkim?: boolean | null;
  dmarc?: boolean | null;
}

const points = (n: number) => `−${Math.round(n)}`;

/** What took points off a mailbox's health score, each with its cost, worst first; empty when nothing did. */
export function healthReasons(h: HealthInputs): string[] {
  if (h.status === 'DISCONNECTED') return ['Disconnected: its login was refused, so it cannot send (score 0)'];
  const reasons: [number, string][] = [];
  if (h.sent7d > 0 && h.bounced7d > 0) {
    const cost = Math.min(70, (1000 * h.bounced7d) / h.sent7d);
    reasons.push([cost, `${h.bounced7d} of ${h.sent7d} sends of the last 7 days bounced (${points(cost)})`]);
  }
  if (h.sent7d >= 20 && h.replied7d === 0) reasons.push([10, `No reply to its ${h.sent7d} sends of the last 7 days (${points(10)})`]);
  if (h.complaints7d) {
    const cost = Math.min(30, 10 * h.complaints7d);
    reasons.push([cost, `${h.complaints7d} spam complaint${h.complaints7d === 1 ? '' : 's'} (${points(cost)})`]);
  }
  const placed = h.warmupInbox7d + h.warmupSpam7d + h.warmupPromotions7d + h.warmupMissing7d;
  if (placed >= 5) {
    const bad = h.warmupSpam7d + h.warmupMissing7d;
    const spamCost = Math.min(40, (50 * bad) / placed);
    if (bad > 0) reasons.push([spamCost, `${bad} of ${placed} warmup e-mails landed in spam or went missing (${points(spamCost)})`]);
    const promoCost = Math.min(10, (10 * h.warmupPromotions7d) / placed);
    if (h.warmupPromotions7d > 0 && Math.round(promoCost) > 0) reasons.push([promoCost, `${h.warmupPromotions7d} of ${placed} warmup e-mails landed in promotions (${points(promoCost)})`]);
  }
  if (h.spf === false) reasons.push([10, `Its domain has no valid SPF record (${points(10)})`]);
  if (h.dkim === false) reasons.push([10, `Its domain has no DKIM key (${points(10)})`]);
  if (h.dmarc === false) reasons.push([5, `Its domain has no DMARC record (${points(5)})`]);
  if (h.imapFailures > 0) reasons.push([20, `Its inbox cannot be read: replies and bounces go unseen (${points(20)})`]);
  return reasons.sort((a, b) => b[0] - a[0]).map(([, text]) => text);
}

/** The add form's fields a failed login check can concern. */
export type LoginField = 'email' | 'smtpHost' | 'smtpPassword' | 'imapHost' | 'imapPassword';

/**
 * The field a failure of the add operation concerns, from its fixed sentence ("IMAP login refused: …",
 * "SMTP server unreachable: timed out", "already connected"); null when it names none.
 */
export function loginFailureField(error: string): LoginField | null {
  const m = /^(SMTP|IMAP) (login refused|server unreachable|server not allowed)/.exec(error);
  if (m) return `${m[1] === 'SMTP' ? 'smtp' : 'imap'}${m[2] === 'login refused' ? 'Password' : 'Host'}` as LoginField;
  if (/^already connected/.test(error)) return 'email';
  return null;
}

/** A failure's sentence as a person reads it beside its field. */
export function loginFailureText(error: string): string {
  if (/^(SMTP|IMAP) login refused/.test(error)) return `${error.slice(0, 4)} login refused: the server did not accept this username or password.`;
  if (error === 'already connected') return 'This address is already connected to the workspace.';
  return `${error[0]!.toUpperCase()}${error.slice(1)}.`;
}

/** Implicit TLS on the port the server chooses it for (465 / 993), STARTTLS when offered otherwise. */
export type Security = 'ssl' | 'starttls';
export const securityOfPort = (protocol: 'smtp' | 'imap', port: number | string): Security => (Number(port) === (protocol === 'smtp' ? 465 : 993) ? 'ssl' : 'starttls');
export const portOfSecurity = (protocol: 'smtp' | 'imap', security: Security): number =>
  protocol === 'smtp' ? (security === 'ssl' ? 465 : 587) : security === 'ssl' ? 993 : 143;

export interface DomainVitals {
  domain: string;
  spf: boolean;
  dkim: boolean;
  dmarc: boolean;
  mx: boolean;
}

/** What to change in a domain's DNS so its checks pass, one sentence per missing record. */
export function vitalsFixes(v: DomainVitals): string[] {
  const fixes: string[] = [];
  if (!v.spf)
    fixes.push(`SPF: publish exactly one TXT record at ${v.domain} starting with "v=spf1", listing your mail provider (e.g. "v=spf1 include:_spf.google.com ~all"), never ending in "+all".`);
  if (!v.dkim) fixes.push(`DKIM: publish your mail provider's DKIM key as a TXT record at <selector>._domainkey.${v.domain} (add the selector in the workspace settings if it is not a common one).`);
  if (!v.dmarc) fixes.push(`DMARC: publish a TXT record at _dmarc.${v.domain}, e.g. "v=DMARC1; p=none; rua=mailto:dmarc@${v.domain}", then move to p=quarantine.`);
  if (!v.mx) fixes.push(`MX: ${v.domain} has no MX record, so replies cannot reach it; add your mail provider's MX records.`);
  return fixes;
}

/** The distinct domains of addresses, in order of first appearance. */
export function domainsOf(emails: string[]): string[] {
  return [...new Set(emails.map((e) => e.slice(e.lastIndexOf('@') + 1).toLowerCase()).filter(Boolean))];
}

export interface NewMailbox {
  email: string;
  firstName?: string;
  lastName?: string;
  smtpHost: string;
  smtpPort: number;
  smtpUsername: string;
  smtpPassword: string;
  imapHost: string;
  imapPort: number;
  imapUsername: string;
  imapPassword: string;
  dailyLimit?: number;
  sendingGap?: number;
}

/** A CSV column's name compared without case, spaces, dashes or underscores. */
const column = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const COLUMNS: Record<string, keyof NewMailbox> = {
  email: 'email',
  emailaddress: 'email',
  firstname: 'firstName',
  lastname: 'lastName',
  smtphost: 'smtpHost',
  smtpport: 'smtpPort',
  smtpusername: 'smtpUsername',
  smtpuser: 'smtpUsername',
  smtppassword: 'smtpPassword',
  imaphost: 'imapHost',
  imapport: 'imapPort',
  imapusername: 'imapUsername',
  imapuser: 'imapUsername',
  imappassword: 'imapPassword',
  dailylimit: 'dailyLimit',
  sendinggap: 'sendingGap',
};
export const CSV_COLUMNS = ['email', 'first_name', 'last_name', 'smtp_host', 'smtp_port', 'smtp_username', 'smtp_password', 'imap_host', 'imap_port', 'imap_username', 'imap_password', 'daily_limit', 'sending_gap'];

export type CsvRow = { row: number; email: string } & ({ mailbox: NewMailbox; problem?: undefined } | { mailbox?: undefined; problem: string });

/**
 * The mailboxes of a parsed CSV (one object per line, keyed by its header): each row a mailbox, or
 * the problem that keeps it from being sent. Usernames default to the address; rows are numbered
 * as a spreadsheet shows them (the header is row 1).
 */
export function mailboxesOfCsv(records: Record<string, string | undefined>[]): CsvRow[] {
  return records.map((record, index) => {
    const values: Partial<Record<keyof NewMailbox, string>> = {};
    for (const [name, value] of Object.entries(record)) {
      const key = COLUMNS[column(name)];
      if (key && value !== undefined) values[key] = value.trim();
    }
    const row = index + 2;
    const email = values.email ?? '';
    const missing = (['email', 'smtpHost', 'smtpPort', 'smtpPassword', 'imapHost', 'imapPort', 'imapPassword'] as const).filter((k) => !values[k]);
    if (missing.length) return { row, email, problem: `missing ${missing.map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)).join(', ')}` };
    const number = (key: 'smtpPort' | 'imapPort' | 'dailyLimit' | 'sendingGap') => (values[key] ? Number(values[key]) : undefined);
    for (const key of ['smtpPort', 'imapPort', 'dailyLimit', 'sendingGap'] as const) {
      const n = number(key);
      if (n !== undefined && !Number.isInteger(n)) return { row, email, problem: `${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)} must be a whole number` };
    }
    return {
      row,
      email,
      mailbox: {
        email,
        ...(values.firstName ? { firstName: values.firstName } : {}),
        ...(values.lastName ? { lastName: values.lastName } : {}),
        smtpHost: values.smtpHost!,
        smtpPort: number('smtpPort')!,
        smtpUsername: values.smtpUsername || email,
        smtpPassword: values.smtpPassword!,
        imapHost: values.imapHost!,
        imapPort: number('imapPort')!,
        imapUsername: values.imapUsername || email,
        imapPassword: values.imapPassword!,
        ...(number('dailyLimit') !== undefined ? { dailyLimit: number('dailyLimit') } : {}),
        ...(number('sendingGap') !== undefined ? { sendingGap: number('sendingGap') } : {}),
      },
    };
  });
}
