// The statement that takes a mailbox for one warmup send and writes its e-mail (CLAIM_WARMUP_SEND_SQL):
// what it writes when the mailbox is free, and that it writes nothing at all when it is not.
import { describe, expect, it } from 'vitest';
import { newId, type Tx } from '@outreach/db';
import { createSendingFixture, useSmtpServer, usingPostgres, useTestDatabase } from '../testing/index';
import { CLAIM_WARMUP_SEND_SQL } from './warmup.queries';

const db = useTestDatabase();
const PASSWORDS = { 'ann@alpha.test': 'pw-ann', 'bob@beta.test': 'pw-bob' };
const smtp = useSmtpServer(PASSWORDS);
const MINUTE = 60_000;

async function setup() {
  const f = await createSendingFixture({ db, smtp, passwords: PASSWORDS, start: '2026-12-07T09:00:00Z' });
  const ann = await f.mailbox('ann@alpha.test');
  const bob = await f.mailbox('bob@beta.test');
  await db.prisma.emailAccount.updateMany({ where: { id: { in: [ann, bob] } }, data: { warmupStatus: 'ACTIVE' } });
  const now = f.clock.now();
  /** One warmup e-mail from `from` to `to` (an answer to `reply`), its gap ending 10 minutes on. */
  const claim = async (options: { from: string; to: string; reply?: string; tx?: Tx }) => {
    const id = newId();
    const rows = await (options.tx ?? db.prisma).$queryRawUnsafe<{ id: string }[]>(
      CLAIM_WARMUP_SEND_SQL,
      options.from,
      now.toISOString(),
      options.reply ?? null,
      id,
      f.org.organizationId,
      f.ws,
      options.to,
      `code${id}`,
      `${id}@alpha.test`,
      `${id}@alpha.test`,
      options.reply ? 'earlier@beta.test' : null,
      options.reply ? 'earlier@beta.test' : '',
      options.reply ? 'Re: Hello' : 'Hello',
      options.reply ? 1 : 0,
      'OTHER',
      new Date(now.getTime() + 10 * MINUTE).toISOString(),
    );
    return { id, taken: rows.map((r) => r.id) };
  };
  const written = () => db.prisma.warmupMessage.findMany({ where: { organizationId: f.org.organizationId }, orderBy: { sentAt: 'asc' } });
  const gapOf = async (id: string) => (await db.prisma.emailAccount.findUniqueOrThrow({ where: { id } })).nextSendAllowedAt?.toISOString() ?? null;
  return { ...f, ann, bob, now, claim, written, gapOf };
}

describe('claiming a mailbox for a warmup e-mail (one statement)', () => {
  it('writes the e-mail and the mailbox gap when the mailbox is free, and nothing while its gap lasts', async () => {
    const t = await setup();
    const first = await t.claim({ from: t.ann, to: t.bob });
    expect(first.taken).toEqual([t.ann]);
    const rows = await t.written();
    expect(rows.map((r) => [r.id, r.senderAccountId, r.recipientAccountId, r.subject, r.depth, r.placement])).toEqual([[first.id, t.ann, t.bob, 'Hello', 0, 'PENDING']]);
    expect(await t.gapOf(t.ann)).toBe(new Date(t.now.getTime() + 10 * MINUTE).toISOString());

    // Its gap has not passed: skipped, nothing written.
    expect((await t.claim({ from: t.ann, to: t.bob })).taken).toEqual([]);
    expect(await t.written()).toHaveLength(1);

    // Paused, or warmup off: the same.
    await db.prisma.emailAccount.update({ where: { id: t.bob }, data: { warmupStatus: 'INACTIVE' } });
    expect((await t.claim({ from: t.bob, to: t.ann })).taken).toEqual([]);
    expect(await t.written()).toHaveLength(1);
    expect(await t.gapOf(t.bob)).toBeNull();
  });

  it('answers an e-mail once: a second answer to it writes nothing and leaves the mailbox free', async () => {
    const t = await setup();
    const opening = await t.claim({ from: t.ann, to: t.bob });
    const answer = await t.claim({ from: t.bob, to: t.ann, reply: opening.id });
    expect(answer.taken).toEqual([t.bob]);
    const answered = await db.prisma.warmupMessage.findUniqueOrThrow({ where: { id: opening.id } });
    expect(answered.repliedAt?.toISOString()).toBe(t.now.toISOString());

    // Bob's gap over, the same e-mail answered again (another worker's decision): nothing written.
    await db.prisma.emailAccount.update({ where: { id: t.bob }, data: { nextSendAllowedAt: null } });
    expect((await t.claim({ from: t.bob, to: t.ann, reply: opening.id })).taken).toEqual([]);
    expect((await t.written()).map((r) => r.id)).toEqual([opening.id, answer.id]);
    expect(await t.gapOf(t.bob)).toBeNull();
  });

  // PostgreSQL only: PGlite runs one transaction at a time.
  it.runIf(usingPostgres())('skips a mailbox another send holds, without waiting for it', async () => {
    const t = await setup();
    const held = Promise.withResolvers<void>();
    const released = Promise.withResolvers<void>();
    const holder = db.prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe(`SELECT id FROM email_accounts WHERE id = $1 FOR NO KEY UPDATE`, t.ann);
      held.resolve();
      await released.promise;
    });
    await held.promise;
    try {
      const skipped = await db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = '2s'`);
        return t.claim({ from: t.ann, to: t.bob, tx });
      });
      expect(skipped.taken).toEqual([]);
      expect(await t.written()).toEqual([]);
    } finally {
      released.resolve();
      await holder;
    }
    expect((await t.claim({ from: t.ann, to: t.bob })).taken).toEqual([t.ann]);
  });
});
