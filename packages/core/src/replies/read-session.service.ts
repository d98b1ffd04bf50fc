/**
 * The IMAP session a reply loop keeps for its mailbox from one read to the next: a read reuses
 * it while it is usable, was opened with the mailbox's current login (host, port, user, password or
 * auth type: a mailbox updated meanwhile logs in anew) and is younger than `maxAgeMs` (so that an
 * OAuth session never outlives its access token, and a server's view is renewed now and then).
 * Until 2026-12-07 every read and every wait for news logged in anew: two logins a minute per mailbox.
 */
import type { MailboxSession } from '../shared/mailbox-reader';
import { sessionLifetimeMs } from './read-session.rules';

/**
 * A kept session is logged out and opened anew after at most this long (OAuth access tokens last an
 * hour); each lives a random 75–100 % of it (sessionLifetimeMs), so sessions opened together renew apart.
 */
export const READ_SESSION_MAX_AGE_MS = 20 * 60_000;

export class ReadSession {
  private kept: { session: MailboxSession; login: string; openedAt: number; lifetimeMs: number } | null = null;

  constructor(
    private readonly maxAgeMs: number = READ_SESSION_MAX_AGE_MS,
    private readonly random: () => number = Math.random,
  ) {}

  /** The kept session when it may serve `login` now; otherwise null, a kept one closed. */
  async reusable(login: string): Promise<MailboxSession | null> {
    if (this.kept && this.kept.login !== login) await this.drop();
    return this.live();
  }

  /** The kept session while it is usable and young enough (whatever its login: the read that kept it just checked that); otherwise null, a kept one closed. */
  async live(): Promise<MailboxSession | null> {
    const kept = this.kept;
    if (!kept) return null;
    if (kept.session.usable && performance.now() - kept.openedAt < kept.lifetimeMs) return kept.session;
    await this.drop();
    return null;
  }

  /** Keeps a session just opened (closing one kept before). */
  async keep(session: MailboxSession, login: string): Promise<void> {
    if (this.kept && this.kept.session !== session) await this.drop();
    this.kept = { session, login, openedAt: performance.now(), lifetimeMs: sessionLifetimeMs(this.maxAgeMs, this.random()) };
  }

  /** Closes and forgets the kept session (its connection failed, or the loop ends). */
  async drop(): Promise<void> {
    const kept = this.kept;
    this.kept = null;
    await kept?.session.close().catch(() => undefined);
  }
}
