// A mailbox changed while the reply worker reads it: deleted, or disconnected with its workspace.
// Reading stops quietly (no error logged, nothing stored in a deleted workspace, a mailbox its
// workspace's deletion disconnected is not set back to ACTIVE); and a reply ingested while its
// campaign is being deleted waits for the delete instead of deadlocking with it.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { newId, type PrismaClient } from '@outreach/db';
import { createSendingFixture, rawMail, untilWaitingOnLock, useSmtpServer, useTestDatabase, usingPostgres } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import { stubMailboxReader } from '../testing/mailbox-reader-stub';
import { ingestMessage } from './ingest.service';
import { syncMailbox } from './mailbox-sync.service';

const PASSWORDS: Record<string, string> = { 'alice@sender.test': 'alice-pw' };

const db = useTestDatabase();
const smtp = useSmtpServer(PASSWORDS);

type LogLine = { level: number; msg: string };

/** A mailbox that has sent a lead its first step; its log lines kept; `read(beforeFetch, client)`: deps (on `client`) whose reader runs `beforeFetch` first, then hands over the lead's reply and two unrelated messages. */
async function setup() {
  const t = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-11-23T09:00:00Z' });
  const alice = await t.mailbox('alice@sender.test');
  const c = await t.campaign({ mailboxes: [alice], steps: [{ variations: [{ label: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }, { waitTime: 1, variations: [{ label: 'A', subject: '', body: '<p>Again</p>' }] }] });
  const leadId = await t.lead(c.id, 'ann@lead.test');
  await t.tick();
  const sent = await db.prisma.sentEmail.findFirstOrThrow({ where: { leadId } });
  const reply = rawMail({ from: 'ann@lead.test', to: 'alice@sender.test', subject: 'Re: Hello', messageId: `r-${newId()}@lead.test`, inReplyTo: sent.messageId, text: 'Tell me more.' });
  const others = [1, 2].map((n) => rawMail({ from: `x${n}@else.test`, to: 'alice@sender.test', subject: `Other ${n}`, messageId: `o${n}-${newId()}@else.test`, text: 'Hi' }));
  const lines: LogLine[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
  const read = (beforeFetch: () => Promise<unknown>, client: PrismaClient = t.deps.db): ServiceDeps => {
    const reader = stubMailboxReader(async () => {
      await beforeFetch();
      return { uidValidity: 9n, reset: false, messages: [reply, ...others].map((raw, i) => ({ uid: BigInt(i + 1), raw, internalDate: t.clock.now() })) };
    });
    return { ...t.deps, db: client, log, ports: { ...t.deps.ports, imap: reader } };
  };
  const stored = () => db.prisma.uniboxMessage.count({ where: { workspaceId: t.ws, direction: 'IN' } });
  const problems = () => lines.filter((l) => l.level >= 40).map((l) => l.msg);
  return { t, alice, c, leadId, reply, read, stored, problems };
}

describe('a mailbox changed while the reply worker reads it', () => {
  it('stores nothing more once its workspace is deleted, and leaves it disconnected (was read on, and set back to ACTIVE)', async () => {
    const s = await setup();
    // Disconnected by a refused IMAP login: the reader goes on trying it, to reconnect it.
    await db.prisma.emailAccount.update({ where: { id: s.alice }, data: { status: 'DISCONNECTED', disconnectReason: 'imap_auth' } });
    // The workspace deleted while the reader logs in and fetches (as its tombstone does).
    const deps = s.read(() => db.prisma.emailAccount.update({ where: { id: s.alice }, data: { status: 'DISCONNECTED', disconnectReason: 'workspace deleted', warmupStatus: 'INACTIVE' } }));
    expect(await syncMailbox({ deps, mailboxId: s.alice })).toMatchObject({ status: 'skipped', stored: 0 });
    expect(await s.stored()).toBe(0);
    expect(await db.prisma.emailAccount.findUniqueOrThrow({ where: { id: s.alice }, select: { status: true, disconnectReason: true } })).toEqual({ status: 'DISCONNECTED', disconnectReason: 'workspace deleted' });
    // Nor is it read again.
    expect(await syncMailbox({ deps: s.read(async () => undefined), mailboxId: s.alice })).toMatchObject({ status: 'skipped', read: 0 });
    expect(s.problems()).toEqual([]);
  });

  it('stops quietly when the mailbox is deleted as it is read, or while a message of it is stored (was an error each time)', async () => {
    const s = await setup();
    expect(await syncMailbox({ deps: s.read(() => db.prisma.emailAccount.delete({ where: { id: s.alice } })), mailboxId: s.alice })).toMatchObject({ status: 'skipped', stored: 0 });
    expect(s.problems()).toEqual([]);

    const again = await setup();
    // Deleted between the fetch and the first message's transaction: its rows' foreign keys fail.
    let deleted = false;
    const deleting = new Proxy(db.prisma, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== '$transaction' || deleted) return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return async (...args: unknown[]) => {
          deleted = true;
          await target.emailAccount.delete({ where: { id: again.alice } });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    expect(await syncMailbox({ deps: again.read(async () => undefined, deleting), mailboxId: again.alice })).toMatchObject({ status: 'skipped', stored: 0 });
    expect(again.problems()).toEqual([]);
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())("waits for its workspace's deletion under way and stores nothing (was storing the message after the delete answered)", async () => {
    const s = await setup();
    let ingested: Promise<{ status: string }> | undefined;
    // As the workspace's deletion does, in its transaction: its mailboxes disconnected.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.emailAccount.update({ where: { id: s.alice }, data: { status: 'DISCONNECTED', disconnectReason: 'workspace deleted' } });
        ingested = ingestMessage({ deps: s.read(async () => undefined), mailbox: { id: s.alice, workspaceId: s.t.ws, organizationId: s.t.org.organizationId, email: 'alice@sender.test' }, raw: s.reply });
        ingested.catch(() => {});
        await untilWaitingOnLock(db.prisma);
      },
      { timeout: 30_000 },
    );
    await expect(ingested).resolves.toMatchObject({ status: 'not_read' });
    expect(await s.stored()).toBe(0);
    expect(await db.prisma.lead.findUniqueOrThrow({ where: { id: s.leadId }, select: { status: true } })).toEqual({ status: 'CONTACTED' });
  }, 60_000);

  it.runIf(usingPostgres())('waits for a delete of the campaign under way before taking its lead, where the two deadlocked', async () => {
    const s = await setup();
    let ingested: Promise<unknown> | undefined;
    // As deleting the campaign does: its row, then (its cascade) its leads'.
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM campaigns WHERE id = $1 FOR UPDATE', s.c.id);
        ingested = ingestMessage({ deps: s.read(async () => undefined), mailbox: { id: s.alice, workspaceId: s.t.ws, organizationId: s.t.org.organizationId, email: 'alice@sender.test' }, raw: s.reply });
        ingested.catch(() => {});
        await untilWaitingOnLock(db.prisma);
        await tx.$queryRawUnsafe('SELECT id FROM leads WHERE campaign_id = $1 FOR UPDATE', s.c.id);
        await tx.campaign.delete({ where: { id: s.c.id } });
      },
      { timeout: 30_000 },
    );
    // Its lead gone with the campaign, the reply is kept with the mailbox's other mail.
    await expect(ingested).resolves.toMatchObject({ status: 'stored' });
    expect(await db.prisma.uniboxMessage.findFirstOrThrow({ where: { workspaceId: s.t.ws, direction: 'IN' }, select: { folder: true, leadId: true } })).toEqual({ folder: 'OTHERS', leadId: null });
  }, 60_000);
});
