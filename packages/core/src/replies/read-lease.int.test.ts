// The reply readers' leases against the database (PGlite, and PostgreSQL with DATABASE_URL), on an
// injected clock: how worker processes divide the mailboxes they read, hand them over when a
// reader comes, stops or dies, and never lease one mailbox to two readers.
import { beforeEach, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestMailbox, createTestOrganization, testServiceDeps, TestClock, useTestDatabase } from '../testing/index';
import type { ServiceDeps } from '../shared/context';
import { READER_TTL_REFRESHES } from './read-lease.rules';
import { refreshReadLeases, retireReader, type Reader } from './read-lease.service';

const REFRESH = 15_000;
const TTL = READER_TTL_REFRESHES * REFRESH;

const db = useTestDatabase();
// Readers are global (a worker reads every workspace): none left from another test.
beforeEach(async () => {
  await db.prisma.mailboxReader.deleteMany({});
});

async function setup(mailboxes: number) {
  const org = await createTestOrganization({ db });
  const clock = new TestClock(new Date('2026-11-23T09:00:00Z'));
  const deps: ServiceDeps = testServiceDeps({ db, clock });
  const ids: string[] = [];
  for (let i = 0; i < mailboxes; i++) ids.push((await createTestMailbox({ db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, email: `m${i}-${newId()}@sender.test` })).id);
  const reader = (name: string): Reader => ({ id: newId(), name });
  const refresh = (r: Reader) => refreshReadLeases({ deps, reader: r, ttlMs: TTL, workspaceIds: [org.workspaceId] });
  /** Each mailbox's reader (by name), and the mailboxes no one reads. */
  const leases = async () => {
    const rows = await db.prisma.mailboxReadLease.findMany({ where: { emailAccountId: { in: ids } }, include: { reader: true } });
    const counts: Record<string, number> = {};
    for (const row of rows) counts[row.reader.name] = (counts[row.reader.name] ?? 0) + 1;
    return { counts, unread: ids.length - rows.length };
  };
  return { org, clock, deps, ids, reader, refresh, leases };
}

describe('reply readers divide the mailboxes', () => {
  it('a second reader gets half the mailboxes within two refreshes: the first gives back its newest leases, the second takes them', async () => {
    const t = await setup(5);
    const a = t.reader('a');
    const b = t.reader('b');
    expect(await t.refresh(a)).toMatchObject({ readers: 1, share: 5, reading: t.ids, taken: t.ids });

    // b comes: its share is 3, but a holds every mailbox.
    t.clock.advance(1_000);
    expect(await t.refresh(b)).toMatchObject({ readers: 2, share: 3, reading: [], taken: [] });
    // a's next refresh gives back what exceeds its share: the mailboxes it took last.
    t.clock.advance(REFRESH);
    const given = await t.refresh(a);
    expect(given).toMatchObject({ readers: 2, share: 3, reading: t.ids.slice(0, 3), released: t.ids.slice(3) });
    expect(await t.leases()).toEqual({ counts: { a: 3 }, unread: 2 });
    // b takes them at its next.
    t.clock.advance(1_000);
    expect(await t.refresh(b)).toMatchObject({ reading: t.ids.slice(3), taken: t.ids.slice(3) });
    expect(await t.leases()).toEqual({ counts: { a: 3, b: 2 }, unread: 0 });

    // Steady: more refreshes change nothing.
    t.clock.advance(REFRESH);
    expect(await t.refresh(a)).toMatchObject({ reading: t.ids.slice(0, 3), taken: [], released: [] });
    expect(await t.refresh(b)).toMatchObject({ reading: t.ids.slice(3), taken: [], released: [] });
  });

  it('a stopped reader gives its mailboxes back at once; one that died keeps them until it has missed its renewals, then another takes them', async () => {
    const t = await setup(4);
    const a = t.reader('a');
    const b = t.reader('b');
    const c = t.reader('c');
    await t.refresh(a);
    await t.refresh(b);
    await t.refresh(a);
    await t.refresh(b);
    expect(await t.leases()).toEqual({ counts: { a: 2, b: 2 }, unread: 0 });

    // a stops: its leases go with it, and b takes them at its next refresh.
    await retireReader({ deps: t.deps, reader: a });
    expect(await t.leases()).toEqual({ counts: { b: 2 }, unread: 2 });
    t.clock.advance(REFRESH);
    expect(await t.refresh(b)).toMatchObject({ readers: 1, share: 4, taken: t.ids.slice(0, 2) });
    expect(await t.leases()).toEqual({ counts: { b: 4 }, unread: 0 });

    // c comes and gets half; then b dies (is no longer renewed).
    await t.refresh(c);
    t.clock.advance(REFRESH);
    await t.refresh(b);
    await t.refresh(c);
    expect(await t.leases()).toEqual({ counts: { b: 2, c: 2 }, unread: 0 });
    // Within its time to live, b's mailboxes stay b's: c takes nothing.
    t.clock.advance(TTL - 1);
    expect(await t.refresh(c)).toMatchObject({ readers: 2, gone: 0, taken: [] });
    // Past it, c's refresh removes b and takes every mailbox.
    t.clock.advance(REFRESH);
    expect(await t.refresh(c)).toMatchObject({ readers: 1, gone: 1, share: 4, reading: expect.arrayContaining(t.ids) });
    expect(await t.leases()).toEqual({ counts: { c: 4 }, unread: 0 });

    // b was only slow, and comes back: it has lost its leases and takes nothing until c gives some back.
    const back = await t.refresh(b);
    expect(back).toMatchObject({ readers: 2, share: 2, reading: [] });
    t.clock.advance(REFRESH);
    expect((await t.refresh(c)).released).toHaveLength(2);
    expect((await t.refresh(b)).taken).toHaveLength(2);
    expect(await t.leases()).toEqual({ counts: { b: 2, c: 2 }, unread: 0 });
  });

  it('a mailbox paused, or waiting for its next IMAP retry, is given back and not counted; a deleted one loses its lease', async () => {
    const t = await setup(4);
    const a = t.reader('a');
    await t.refresh(a);
    const [paused, waiting, deleted] = t.ids;
    await db.prisma.emailAccount.update({ where: { id: paused! }, data: { status: 'PAUSED' } });
    await db.prisma.emailAccount.update({ where: { id: waiting! }, data: { imapRetryAt: new Date(t.clock.now().getTime() + 60_000) } });
    await db.prisma.emailAccount.delete({ where: { id: deleted! } });
    const after = await t.refresh(a);
    expect(after).toMatchObject({ readable: 1, share: 1, reading: [t.ids[3]], released: [paused, waiting] });
    // The retry time comes: it is read again.
    t.clock.advance(60_000);
    expect(await t.refresh(a)).toMatchObject({ readable: 2, taken: [waiting] });
  });

  it('readers refreshing at once take their turns: each its share at its first refresh, no mailbox twice', async () => {
    const t = await setup(40);
    const readers = Array.from({ length: 4 }, (_, i) => t.reader(`r${i}`));
    // Registered one after the other (the first takes everything), then every lease dropped.
    for (const r of readers) await t.refresh(r);
    await db.prisma.mailboxReadLease.deleteMany({ where: { emailAccountId: { in: t.ids } } });
    // All four at once (on PostgreSQL each on its own connection): one turn each, 10 each.
    t.clock.advance(REFRESH);
    const results = await Promise.all(readers.map((r) => t.refresh(r)));
    const reading = results.flatMap((r) => r.reading);
    expect(new Set(reading).size, 'no mailbox read by two readers').toBe(reading.length);
    expect(results.map((r) => r.reading.length)).toEqual([10, 10, 10, 10]);
    expect(await t.leases()).toEqual({ counts: { r0: 10, r1: 10, r2: 10, r3: 10 }, unread: 0 });
  });
});
