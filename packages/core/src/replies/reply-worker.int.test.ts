// The reply worker's real loops on the system clock, against Dovecot on loopback: worker
// processes divide the mailboxes (one IMAP session per mailbox however many run), hand them over
// when one joins or stops, and read the mail that arrives meanwhile.
import { ImapFlow } from 'imapflow';
import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createSendingFixture, imapServerUnavailable, rawMail, useImapServer, useSmtpServer, useTestDatabase } from '../testing/index';
import type { MailboxReader } from '../shared/mailbox-reader';
import { startReplyWorker, type ReplyWorker } from './reply-worker.service';

const MAILBOXES = Array.from({ length: 6 }, (_, i) => `reader${i}@sender.test`);
const PASSWORDS: Record<string, string> = Object.fromEntries(MAILBOXES.map((m, i) => [m, `pw-${i}`]));
const missingImap = imapServerUnavailable();

const db = useTestDatabase();
const smtp = useSmtpServer(PASSWORDS);
const imap = useImapServer(PASSWORDS);
// Readers are global (a worker reads every workspace): none left from another test.
beforeEach(async () => {
  await db.prisma.mailboxReader.deleteMany({});
});

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}; IMAP sessions open: ${JSON.stringify(await imap.openSessions())}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function setup() {
  // The system clock: the workers' real loops, renewals and handovers on time that moves.
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: new Date().toISOString() });
  const deps = { ...t.deps, ports: { ...t.deps.ports, clock: { now: () => new Date() } } };
  const ids: Record<string, string> = {};
  for (const email of MAILBOXES) ids[email] = await t.mailbox(email, { imapPort: imap.port });
  const workers: ReplyWorker[] = [];
  const start = (extra: { soleReader?: boolean; loginConcurrency?: number; imap?: MailboxReader } = {}) => {
    const { imap: reader, ...rest } = extra;
    // Refreshes every 300 ms, polls once an hour: new mail comes through IDLE.
    const worker = startReplyWorker({
      deps: reader ? { ...deps, ports: { ...deps.ports, imap: reader } } : deps,
      pollMs: 3_600_000,
      refreshMs: 300,
      readerTtlMs: 10_000,
      workspaceIds: [t.ws],
      ...rest,
    });
    workers.push(worker);
    return worker;
  };
  /** The mailboxes each reader holds, counted (reader ids are not named: both readers are this process). */
  const shares = async () => {
    const rows = await db.prisma.mailboxReadLease.groupBy({ by: ['readerId'], where: { emailAccountId: { in: Object.values(ids) } }, _count: true });
    return rows.map((r) => r._count).sort();
  };
  /** Whether every mailbox has exactly one IMAP session open (its loop waiting in IDLE). */
  const oneSessionEach = async () => {
    const open = await imap.openSessions();
    return MAILBOXES.every((m) => open[m] === 1);
  };
  const delivered: Record<string, number> = {};
  const deliver = async (to: string, subject: string) => {
    delivered[to] = (delivered[to] ?? 0) + 1;
    const client = new ImapFlow({ host: '127.0.0.1', port: imap.port, secure: false, auth: { user: to, pass: PASSWORDS[to]! }, logger: false });
    client.on('error', () => {});
    await client.connect();
    await client.append('INBOX', rawMail({ from: 'stranger@elsewhere.test', to, subject, messageId: `${newId()}@elsewhere.test`, text: 'Hello there.' }));
    await client.logout();
  };
  const stored = (to: string, subject: string) => db.prisma.uniboxMessage.count({ where: { workspaceId: t.ws, emailAccountId: ids[to]!, subject } });
  const stopAll = () => Promise.all(workers.map((w) => w.stop()));
  /** The logins of the readers to `mailbox` so far (the log's, less the test's own deliveries). */
  const readerLogins = async (mailbox: string) => (await imap.logins()).filter((l) => l.user === mailbox).length - (delivered[mailbox] ?? 0);
  return { ws: t.ws, deps, ids, start, shares, oneSessionEach, deliver, stored, stopAll, readerLogins };
}

describe.skipIf(missingImap)('reply workers divide the mailboxes', () => {
  it('two workers open one IMAP session per mailbox, not two, and read every message once', async () => {
    const t = await setup();
    try {
      t.start();
      t.start();
      await until('the mailboxes divided 3 and 3', async () => JSON.stringify(await t.shares()) === '[3,3]');
      await until('one session per mailbox', t.oneSessionEach);
      // Held steady over more refreshes: no mailbox gains a second session.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(await imap.openSessions()).toEqual(Object.fromEntries(MAILBOXES.map((m) => [m, 1])));

      const before = (await imap.logins()).length;
      for (const m of MAILBOXES) await t.deliver(m, `Hello ${m}`);
      await until('each message stored', async () => (await Promise.all(MAILBOXES.map((m) => t.stored(m, `Hello ${m}`)))).every((n) => n === 1));
      await until('back in IDLE', t.oneSessionEach);
      // Per mailbox: our own APPEND, then one reader's read and its new IDLE (two readers would make five).
      const logins = (await imap.logins()).slice(before);
      for (const m of MAILBOXES) expect(logins.filter((l) => l.user === m).length, m).toBeLessThanOrEqual(3);
    } finally {
      await t.stopAll();
    }
  }, 40_000);

  it('a worker that joins takes half and the first closes what it gave back; one that stops hands its mailboxes over, and their mail is read', async () => {
    const t = await setup();
    try {
      const first = t.start();
      await until('the first worker reads all six', async () => JSON.stringify(await t.shares()) === '[6]');
      await until('one session per mailbox', t.oneSessionEach);

      t.start();
      await until('the mailboxes divided 3 and 3', async () => JSON.stringify(await t.shares()) === '[3,3]');
      await until('the sessions given back closed, the new ones open', t.oneSessionEach);

      // The first stops: the second takes its mailboxes at its next refresh, and reads what came meanwhile.
      const [firstReader] = await db.prisma.mailboxReader.findMany({ orderBy: { startedAt: 'asc' }, take: 1 });
      const givenBack = (await db.prisma.mailboxReadLease.findMany({ where: { readerId: firstReader!.id }, include: { emailAccount: true } })).map((l) => l.emailAccount.email);
      expect(givenBack).toHaveLength(3);
      await first.stop();
      for (const m of givenBack) await t.deliver(m, `After the handover ${m}`);
      await until('the second worker reads all six', async () => JSON.stringify(await t.shares()) === '[6]');
      await until('each message stored', async () => (await Promise.all(givenBack.map((m) => t.stored(m, `After the handover ${m}`)))).every((n) => n === 1));
      await until('one session per mailbox', t.oneSessionEach);
    } finally {
      await t.stopAll();
    }
    // Stopped: no reader left, no session open.
    expect(await db.prisma.mailboxReader.count()).toBe(0);
    await until('every session closed', async () => Object.keys(await imap.openSessions()).length === 0, 5_000);
  }, 60_000);

  it('on the embedded database a worker restarted after a crash reads every mailbox at once, not only those the dead process had left free', async () => {
    const t = await setup();
    // What a killed process leaves: its reader, live for a while yet, holding half the mailboxes.
    await db.prisma.mailboxReader.create({
      data: {
        id: newId(), name: 'dead-host/4242', startedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000),
        leases: { create: MAILBOXES.slice(0, 3).map((m) => ({ emailAccountId: t.ids[m]!, takenAt: new Date() })) },
      },
    });
    try {
      t.start({ soleReader: true });
      await until('every mailbox read by the new process', async () => JSON.stringify(await t.shares()) === '[6]');
      await until('one session per mailbox', t.oneSessionEach);
      expect(await db.prisma.mailboxReader.count()).toBe(1);
    } finally {
      await t.stopAll();
    }
  }, 30_000);
});

describe.skipIf(missingImap)('a worker starting its reading loops', () => {
  it('has at most IMAP_LOGIN_CONCURRENCY logins under way at once, and every mailbox gets its session', async () => {
    const t = await setup();
    /** The server's reader, each login held back 200 ms (a slow server), counting the logins under way at once. */
    const counting = () => {
      const seen = { now: 0, most: 0 };
      const inner = t.deps.ports.imap;
      const counted =
        <A, R>(fn: (a: A) => Promise<R>) =>
        async (a: A) => {
          seen.most = Math.max(seen.most, ++seen.now);
          try {
            await new Promise((r) => setTimeout(r, 200));
            return await fn(a);
          } finally {
            seen.now -= 1;
          }
        };
      const reader: MailboxReader = { open: counted((o) => inner.open(o)), fetchNew: counted((o) => inner.fetchNew(o)) };
      return { reader, seen };
    };
    try {
      const limited = counting();
      const worker = t.start({ loginConcurrency: 2, imap: limited.reader });
      await until('one session per mailbox', t.oneSessionEach);
      expect(limited.seen.most).toBe(2);
      await worker.stop();
      await until('the sessions closed', async () => Object.keys(await imap.openSessions()).length === 0);

      // Without the limit, the six loops log in together (all six at once but for a slow database read before one).
      const unlimited = counting();
      t.start({ loginConcurrency: 100, imap: unlimited.reader });
      await until('one session per mailbox', t.oneSessionEach);
      expect(unlimited.seen.most).toBeGreaterThan(2);
    } finally {
      await t.stopAll();
    }
  });
});

describe.skipIf(missingImap)('a reply loop keeps its IMAP session', () => {
  const MAILBOX = MAILBOXES[0]!;
  const storedEach = async (t: Awaited<ReturnType<typeof setup>>, subject: string) =>
    until(`"${subject}" stored`, async () => (await t.stored(MAILBOX, subject)) === 1);

  it('reads message after message, and waits in IDLE between them, over one login', async () => {
    const t = await setup();
    try {
      t.start();
      await until('one session per mailbox', t.oneSessionEach);
      const before = await t.readerLogins(MAILBOX);
      for (let i = 0; i < 3; i++) {
        await t.deliver(MAILBOX, `Kept ${i}`);
        await storedEach(t, `Kept ${i}`);
      }
      await until('back in IDLE', t.oneSessionEach);
      // Each message used to cost two logins (the read, then a new IDLE).
      expect((await t.readerLogins(MAILBOX)) - before).toBe(0);
    } finally {
      await t.stopAll();
    }
  }, 30_000);

  // Each case ends the kept session one way; the next read logs in once, and reads the mail that came meanwhile.
  const endings: [string, (t: Awaited<ReturnType<typeof setup>>) => Promise<unknown>][] = [
    ['the server drops the session', async () => expect(await imap.dropSessions(MAILBOX)).toBe(1)],
    // The password set again (as the API stores it: encrypted anew): the next read must not go on with the old login.
    ['the mailbox is updated (its IMAP settings)', (t) => db.prisma.emailAccount.update({ where: { id: t.ids[MAILBOX]! }, data: { imapPasswordEnc: t.deps.secrets.encrypt(PASSWORDS[MAILBOX]!) } })],
  ];
  it.each(endings)('logs in anew when %s, closing the old session, and reads what came meanwhile', async (ending, end) => {
    const t = await setup();
    try {
      t.start();
      await until('one session per mailbox', t.oneSessionEach);
      const before = await t.readerLogins(MAILBOX);
      await end(t);
      await t.deliver(MAILBOX, `After ${ending}`);
      await storedEach(t, `After ${ending}`);
      await until('one session per mailbox again', t.oneSessionEach);
      expect((await t.readerLogins(MAILBOX)) - before).toBe(1);
    } finally {
      await t.stopAll();
    }
  }, 30_000);
});
