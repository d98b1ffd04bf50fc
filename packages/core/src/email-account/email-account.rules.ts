import { mailLoginError, mailTarget, type MailServerSettings, type MailVerifier } from '../shared/mail-verifier';
import { OutboundTargetRefused, type LookupAll } from '../shared/outbound-guard';
import type { Prisma } from '@outreach/db';
import { mapLimit } from '../shared/map-limit';

/** The columns of the `warmup_*` settings given (those left out are not in the result). */
export function warmupSettingsData(input: {
  warmup_limit?: number;
  warmup_increment?: number;
  warmup_reply_rate?: number;
  warmup_custom_words?: string;
  warmup_signature?: string;
  warmup_advanced?: Record<string, unknown>;
}) {
  return {
    ...(input.warmup_limit !== undefined ? { warmupLimit: input.warmup_limit } : {}),
    ...(input.warmup_increment !== undefined ? { warmupIncrement: input.warmup_increment } : {}),
    ...(input.warmup_reply_rate !== undefined ? { warmupReplyRate: input.warmup_reply_rate } : {}),
    ...(input.warmup_custom_words !== undefined ? { warmupCustomWords: input.warmup_custom_words } : {}),
    ...(input.warmup_signature !== undefined ? { warmupSignature: input.warmup_signature } : {}),
    ...(input.warmup_advanced !== undefined ? { warmupAdvanced: input.warmup_advanced as Prisma.InputJsonObject } : {}),
  };
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();


/**
 * Both logins of a mailbox; null when they pass, else one of a few fixed reasons (login
 * refused, server unreachable and why): never text that came from the server.
 */
export async function checkLogins(options: { mail: MailVerifier; smtp: MailServerSettings; imap: MailServerSettings }): Promise<string | null> {
  // SMTP first: a mailbox that cannot send is useless whatever IMAP says.
  try {
    await options.mail.verifySmtp(options.smtp);
  } catch (error) {
    return mailLoginError('SMTP', error).message;
  }
  try {
    await options.mail.verifyImap(options.imap);
  } catch (error) {
    return mailLoginError('IMAP', error).message;
  }
  return null;
}

/**
 * Whether a mailbox host is, or resolves to, a private, loopback, link-local or reserved
 * address. A host that does not resolve is not refused here: its login check reports it.
 */
export async function isPrivateHost(host: string, lookup?: LookupAll): Promise<boolean> {
  try {
    await mailTarget(host, { allowPrivateTargets: false, lookup, timeoutMs: 10_000 });
    return false;
  } catch (error) {
    if (error instanceof OutboundTargetRefused) return error.address !== null;
    throw error;
  }
}

const HOST_FIELDS = ['smtp_host', 'imap_host'] as const;
export type HostField = (typeof HOST_FIELDS)[number];

/** The host fields, in order, of the accounts whose host is private (each host resolved once). */
export async function privateHostFields(options: { accounts: { index: number; smtp_host: string; imap_host: string }[]; lookup?: LookupAll }): Promise<{ index: number; field: HostField }[]> {
  const hosts = [...new Set(options.accounts.flatMap((a) => HOST_FIELDS.map((f) => a[f].trim().toLowerCase())))];
  const verdicts = await mapLimit({ items: hosts, limit: 10, fn: (host) => isPrivateHost(host, options.lookup) });
  const isPrivate = new Map(hosts.map((h, i) => [h, verdicts[i]]));
  return options.accounts.flatMap((a) => HOST_FIELDS.filter((f) => isPrivate.get(a[f].trim().toLowerCase())).map((field) => ({ index: a.index, field })));
}
