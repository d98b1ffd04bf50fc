import { MailLoginError, type MailServerSettings, type MailVerifier } from '../shared/mail-verifier';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Runs `fn` over `items` with at most `limit` calls in flight; results keep the input order. */
export async function mapLimit<T, R>(options: { items: T[]; limit: number; fn: (item: T) => Promise<R> }): Promise<R[]> {
  const results = new Array<R>(options.items.length);
  let next = 0;
  const worker = async () => {
    while (next < options.items.length) {
      const index = next++;
      results[index] = await options.fn(options.items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.limit, options.items.length) }, worker));
  return results;
}

/** Both logins of a mailbox; null when they pass, else a readable reason (refused vs unreachable). */
export async function checkLogins(options: { mail: MailVerifier; smtp: MailServerSettings; imap: MailServerSettings }): Promise<string | null> {
  try {
    // SMTP first: a mailbox that cannot send is useless whatever IMAP says.
    await options.mail.verifySmtp(options.smtp);
    await options.mail.verifyImap(options.imap);
    return null;
  } catch (error) {
    if (error instanceof MailLoginError) return error.message;
    return `login check failed: ${(error as Error).message}`;
  }
}

/** `part / whole` as a percentage rounded to 2 decimals; 0 when nothing to divide by. */
export function percent(options: { part: number; whole: number }): number {
  if (options.whole === 0) return 0;
  return Math.round((options.part / options.whole) * 10_000) / 100;
}

/** Every `YYYY-MM-DD` from start to end inclusive. */
export function daysBetween(options: { start: string; end: string }): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${options.start}T00:00:00Z`); t <= Date.parse(`${options.end}T00:00:00Z`); t += 86_400_000) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
