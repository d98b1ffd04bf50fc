// An operation that meets another request's change between its read and its write (the row
// deleted, a deadlock) runs again and answers as it would have a moment later: the interleavings
// below are made on purpose, with the other request's statement run at the exact point between
// the operation's own.
import { describe, expect, it } from 'vitest';
import { newId, type PrismaClient } from '@outreach/db';
import { createTestCampaign, createTestMailbox, createTestTenant, expectDomainError, untilWaitingOnLock, usingPostgres, useTestDatabase } from './testing/index';
import { operations } from './operations';
import type { Ctx } from './shared/context';
import { executeOperation } from './shared/operation';
import { OPERATION_ATTEMPTS, runRetryingConcurrentChanges } from './shared/operation-retry';

const db = useTestDatabase();

/**
 * `ctx` whose database runs `before` (once) just ahead of the first call of `at`: a model method
 * (`emailAccount.update`) or a client method (`$transaction`), as another request would between
 * two of the operation's statements.
 */
function interleaved(ctx: Ctx, at: string, before: () => Promise<unknown>): Ctx {
  const [first, second] = at.split('.') as [string, string | undefined];
  let done = false;
  const once = <F extends (...args: never[]) => unknown>(method: F, self: unknown) =>
    async (...args: Parameters<F>) => {
      if (!done) {
        done = true;
        await before();
      }
      return method.apply(self, args);
    };
  const client = new Proxy(ctx.db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== first) return value;
      if (second === undefined) return once(value as (...args: never[]) => unknown, target);
      return new Proxy(value as object, {
        get: (model, method) => {
          const fn = Reflect.get(model, method) as unknown;
          return method === second ? once(fn as (...args: never[]) => unknown, model) : fn;
        },
      });
    },
  }) as PrismaClient;
  return { ...ctx, db: client };
}

describe('an operation meeting a concurrent change', () => {
  it('tags the mailboxes still there when one is deleted between its read and its write (was a foreign-key 500)', async () => {
    const { ctx, ws, base } = await createTestTenant({ db });
    const kept = await createTestMailbox({ ...base, email: 'kept@out.test' });
    const gone = await createTestMailbox({ ...base, email: 'gone@out.test' });
    const tag = await db.prisma.tag.create({ data: { id: newId(), workspaceId: ws, name: 'Warm', nameNormalized: 'warm' } });
    const raced = interleaved(ctx, 'emailAccountTag.createMany', () => db.prisma.emailAccount.delete({ where: { id: gone.id } }));
    const result = await executeOperation({ op: operations.emailAccount.bulkAssignTags, ctx: raced, input: { workspace_id: ws, ids: [kept.id, gone.id], tag_id: tag.id, action: 'ASSIGN' } });
    expect(result).toEqual({ status: 'success', updated_count: 1 });
    expect(await db.prisma.emailAccountTag.findMany({ where: { tagId: tag.id }, select: { emailAccountId: true } })).toEqual([{ emailAccountId: kept.id }]);
  });

  it("answers a mailbox deleted before its update with the operation's own 404 (was resource.not_found)", async () => {
    const { ctx, ws, base } = await createTestTenant({ db });
    const box = await createTestMailbox({ ...base, email: 'warm@out.test' });
    const raced = interleaved(ctx, 'emailAccount.update', () => db.prisma.emailAccount.delete({ where: { id: box.id } }));
    const error = await expectDomainError(executeOperation({ op: operations.emailAccount.enableWarmup, ctx: raced, input: { workspace_id: ws, email: 'warm@out.test' } }), 'not_found', 'email_account.not_found');
    expect(error.message).toContain('warm@out.test');
  });

  it('refuses a subsequence whose parent campaign is deleted before it is written, naming parent_camp_id (was a foreign-key 500)', async () => {
    const { ctx, ws, base } = await createTestTenant({ db });
    const parent = await createTestCampaign({ ...base, name: 'Parent' });
    const raced = interleaved(ctx, '$transaction', () => db.prisma.campaign.delete({ where: { id: parent.id } }));
    const error = await expectDomainError(
      executeOperation({ op: operations.campaign.addSubsequence, ctx: raced, input: { workspace_id: ws, parent_camp_id: parent.id, name: 'Follow-up', events: [{ name: 'LEAD_REPLY_ALL' }] } }),
      'invalid',
      'campaign.not_found',
    );
    expect(error.fieldErrors).toEqual([{ field: 'parent_camp_id', message: `is not a campaign of workspace ${ws}` }]);
    expect(await db.prisma.campaign.count({ where: { workspaceId: ws } })).toBe(0);
  });

  // PostgreSQL only: PGlite runs one transaction at a time, so two never deadlock.
  it.runIf(usingPostgres())("deletes a campaign after being a deadlock's victim (was a 500)", async () => {
    const { ctx, ws, base, org } = await createTestTenant({ db });
    const campaign = await createTestCampaign({ ...base, name: 'Contended' });
    let deleted: Promise<unknown> | undefined;
    // Another transaction holds the campaign; the delete takes the organization, then waits for the
    // campaign; the other transaction then asks for the organization: a deadlock, whose victim is
    // the delete (it waited first, so PostgreSQL's check finds the cycle in its backend first).
    await db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRawUnsafe('SELECT id FROM campaigns WHERE id = $1 FOR UPDATE', campaign.id);
        deleted = executeOperation({ op: operations.campaign.delete, ctx, input: { workspace_id: ws, campaign_id: campaign.id, is_archive: false } });
        deleted.catch(() => {});
        await untilWaitingOnLock(db.prisma, { sql: 'FROM campaigns' });
        await tx.$queryRawUnsafe('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', org.organizationId);
      },
      { timeout: 30_000 },
    );
    await expect(deleted).resolves.toEqual({ status: 'success' });
    expect(await db.prisma.campaign.count({ where: { id: campaign.id } })).toBe(0);
  }, 60_000);
});

// PostgreSQL only: PGlite runs one transaction at a time.
it.runIf(usingPostgres())('deletes mailboxes that warmed each other up, all at once (was a deadlock, and a 500 once retries ran out)', async () => {
  const { ctx, ws, base, org } = await createTestTenant({ db });
  const at = new Date('2026-11-23T09:00:00Z');
  for (let round = 0; round < 3; round++) {
    const emails = [1, 2, 3, 4].map((n) => `warm${n}-${round}@out.test`);
    const boxes = await Promise.all(emails.map(async (email) => (await createTestMailbox({ ...base, email })).id));
    // Warmup conversations between every two of them: each deletion's cascade reaches rows the others' reach too.
    await db.prisma.warmupMessage.createMany({
      data: boxes.flatMap((from) =>
        boxes
          .filter((to) => to !== from)
          .flatMap((to) =>
            Array.from({ length: 25 }, () => {
              const id = newId();
              return { id, organizationId: org.organizationId, workspaceId: ws, senderAccountId: from, recipientAccountId: to, code: `W-${id}`, messageId: `${id}@out.test`, threadId: id, subject: 'Hello', sentAt: at };
            }),
          ),
      ),
    });
    const results = await Promise.allSettled(emails.map((email) => executeOperation({ op: operations.emailAccount.delete, ctx, input: { workspace_id: ws, email } })));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : String(r.reason)))).toEqual(emails.map(() => ({ status: 'success' })));
    expect(await db.prisma.warmupMessage.count({ where: { workspaceId: ws } })).toBe(0);
  }
}, 60_000);

describe('runRetryingConcurrentChanges', () => {
  /** A statement that fails as a write referring to a deleted row does (P2003). */
  const danglingWrite = (prisma: PrismaClient) => prisma.emailAccountTag.create({ data: { emailAccountId: newId(), tagId: newId() } });

  it(`runs an attempt that failed on a concurrent change again, ${OPERATION_ATTEMPTS} attempts in all`, async () => {
    const { ctx } = await createTestTenant({ db });
    let attempts = 0;
    const failing = runRetryingConcurrentChanges({ name: 'test.dangling', ctx, run: async (c) => (attempts++, danglingWrite(c.db)) });
    await expect(failing).rejects.toMatchObject({ code: 'P2003' });
    expect(attempts).toBe(OPERATION_ATTEMPTS);
  });

  it('does not run again an attempt that contacted an external system, nor one that failed otherwise', async () => {
    const { ctx } = await createTestTenant({ db });
    let attempts = 0;
    const contacted = runRetryingConcurrentChanges({
      name: 'test.sent',
      ctx,
      run: async (c) => {
        attempts++;
        await c.ports.smtp.close();
        return danglingWrite(c.db);
      },
    });
    await expect(contacted).rejects.toMatchObject({ code: 'P2003' });
    expect(attempts).toBe(1);

    attempts = 0;
    const other = runRetryingConcurrentChanges({ name: 'test.other', ctx, run: async () => (attempts++, Promise.reject(new Error('boom'))) });
    await expect(other).rejects.toThrow('boom');
    expect(attempts).toBe(1);
  });
});
