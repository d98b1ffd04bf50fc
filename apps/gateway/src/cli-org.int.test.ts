// `outreach org set-warmup-pool` and `org list`, through the functions the CLI runs (cli-org.ts), and
// what the opt-in does: two organizations' mailboxes warm each other only while both are opted in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createDnsResolver, runWarmupSendTick, type ServiceDeps } from '@outreach/core';
import {
  createTestOrganization,
  startDnsServer,
  startSmtpServer,
  TestClock,
  testServiceDeps,
  useTestDatabase,
  type DnsTestServer,
  type SmtpTestServer,
} from '@outreach/core/testing';
import { listOrganizations, setWarmupSharedPool } from './cli-org';

const db = useTestDatabase();
const PASSWORDS = { 'ann@alpha-pool.test': 'pw-ann', 'bob@beta-pool.test': 'pw-bob' };
let smtp: SmtpTestServer;
let dns: DnsTestServer;

beforeAll(async () => {
  smtp = await startSmtpServer({ users: PASSWORDS });
  dns = await startDnsServer({ records: {} });
});
afterAll(async () => {
  await smtp?.close();
  await dns?.close();
});

/** A mailbox of `organizationId` on the local SMTP server, warming up since yesterday. */
async function poolMailbox(deps: ServiceDeps, org: { organizationId: string; workspaceId: string }, email: keyof typeof PASSWORDS, now: Date) {
  await db.prisma.emailAccount.create({
    data: {
      id: newId(),
      organizationId: org.organizationId,
      workspaceId: org.workspaceId,
      email,
      emailNormalized: email,
      firstName: email.split('@')[0]!,
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpUsername: email,
      smtpPasswordEnc: deps.secrets.encrypt(PASSWORDS[email]),
      imapHost: '127.0.0.1',
      imapPort: 1,
      imapUsername: email,
      imapPasswordEnc: deps.secrets.encrypt(PASSWORDS[email]),
      dailyLimit: 50,
      sendingGap: 0,
      warmupStatus: 'ACTIVE',
      warmupStartedAt: new Date(now.getTime() - 86_400_000),
      warmupLimit: 5,
      warmupIncrement: 0,
    },
  });
}

describe('org set-warmup-pool', () => {
  it('prints the opt-in and whether it takes effect, shows it in org list, and refuses an unknown organization', async () => {
    const a = await createTestOrganization({ db, name: 'Agency client A' });
    const b = await createTestOrganization({ db, name: 'Agency client B' });
    const listed = async () => {
      const all = await listOrganizations({ db: db.prisma });
      return Object.fromEntries(all.filter((o) => o.organization_id === a.organizationId || o.organization_id === b.organizationId).map((o) => [o.name, o.warmup_shared_pool]));
    };
    expect(await listed()).toEqual({ 'Agency client A': false, 'Agency client B': false });

    const on = await setWarmupSharedPool({ db: db.prisma, organizationId: a.organizationId, shared: true, installationSharedPool: false });
    expect(on).toMatchObject({ organization_id: a.organizationId, warmup_shared_pool: true, installation_shared_pool: false });
    expect(on!.note).toContain('WARMUP_SHARED_POOL is off');
    expect(await listed()).toEqual({ 'Agency client A': true, 'Agency client B': false });

    const second = await setWarmupSharedPool({ db: db.prisma, organizationId: b.organizationId, shared: true, installationSharedPool: true });
    expect(second!.opted_in_organizations).toBe(on!.opted_in_organizations + 1);
    expect(second!.note).toMatch(/other opted-in organization/);

    const off = await setWarmupSharedPool({ db: db.prisma, organizationId: a.organizationId, shared: false, installationSharedPool: true });
    expect(off).toMatchObject({ warmup_shared_pool: false, opted_in_organizations: second!.opted_in_organizations - 1 });
    expect(await listed()).toEqual({ 'Agency client A': false, 'Agency client B': true });

    expect(await setWarmupSharedPool({ db: db.prisma, organizationId: newId(), shared: true, installationSharedPool: true })).toBeNull();
  });

  it("widens the warmup pool to the other opted-in organization's mailboxes, and narrows it again on opt-out", async () => {
    const clock = new TestClock(new Date('2026-03-04T10:00:00Z'));
    const deps = testServiceDeps({ db, clock, dns: createDnsResolver({ servers: [dns.address], timeoutMs: 1_000 }) });
    const a = await createTestOrganization({ db });
    const b = await createTestOrganization({ db });
    await poolMailbox(deps, a, 'ann@alpha-pool.test', clock.now());
    await poolMailbox(deps, b, 'bob@beta-pool.test', clock.now());
    // The installation's shared pool is on (WARMUP_SHARED_POOL=true), as the worker would run it.
    const tick = async () => {
      clock.advance(61_000);
      const before = smtp.messages.length;
      const result = await runWarmupSendTick({ deps, sharedPool: true, organizationIds: [a.organizationId, b.organizationId] });
      return { result, delivered: smtp.messages.slice(before).map((m) => `${m.from} -> ${m.to.join()}`).sort() };
    };

    try {
      // Alone in its organization, neither mailbox has anyone to warm with.
      expect(await tick()).toMatchObject({ result: { pool: 2, sent: 0 }, delivered: [] });

      await setWarmupSharedPool({ db: db.prisma, organizationId: a.organizationId, shared: true, installationSharedPool: true });
      expect((await tick()).delivered).toEqual([]);
      await setWarmupSharedPool({ db: db.prisma, organizationId: b.organizationId, shared: true, installationSharedPool: true });
      expect((await tick()).delivered).toEqual(['ann@alpha-pool.test -> bob@beta-pool.test', 'bob@beta-pool.test -> ann@alpha-pool.test']);

      await setWarmupSharedPool({ db: db.prisma, organizationId: b.organizationId, shared: false, installationSharedPool: true });
      expect((await tick()).delivered).toEqual([]);
    } finally {
      await deps.ports.smtp.close();
    }
  });
});
