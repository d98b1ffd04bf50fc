// A workspace ready to send: mailboxes on a local SMTP server (passwords encrypted), an
// ACTIVE campaign with a schedule, leads due in creation order, an injected clock and a
// tick scoped to the workspace. Used by the engine's and the reply ingestion's tests.
import { newId, type Database } from '@outreach/db';
import type { ServiceDeps } from '../shared/context';
import type { Clock } from '../shared/ports';
import { runSchedulerTick } from '../sending/index';
import { createTestCampaign, type TestStep } from './campaign-factory';
import { createTestOrganization, testServiceDeps } from './factories';
import type { SmtpTestServer } from './smtp-server';

export class TestClock implements Clock {
  constructor(public at: Date) {}
  now() {
    return new Date(this.at);
  }
  advance(ms: number) {
    this.at = new Date(this.at.getTime() + ms);
  }
}

const WEEKDAYS = { '1': true, '2': true, '3': true, '4': true, '5': true };

/** `services`: more of the service deps' options (OAuth installation settings, …). */
export async function createSendingFixture(options: {
  db: Database;
  smtp: SmtpTestServer;
  passwords: Record<string, string>;
  start: string;
  services?: Omit<Parameters<typeof testServiceDeps>[0], 'db' | 'clock'>;
}) {
  const { db, smtp } = options;
  const org = await createTestOrganization({ db });
  const clock = new TestClock(new Date(options.start));
  const deps = testServiceDeps({ ...options.services, db, clock });
  const ws = org.workspaceId;
  const mailbox = async (email: string, extra: { dailyLimit?: number; sendingGap?: number; password?: string; imapPort?: number; imapPassword?: string } = {}) => {
    const id = newId();
    await db.prisma.emailAccount.create({
      data: {
        id,
        organizationId: org.organizationId,
        workspaceId: ws,
        email,
        emailNormalized: email.toLowerCase(),
        firstName: email.split('@')[0]!.replace(/^./, (c) => c.toUpperCase()),
        lastName: 'Sender',
        smtpHost: '127.0.0.1',
        smtpPort: smtp.port,
        smtpUsername: email,
        smtpPasswordEnc: deps.secrets.encrypt(extra.password ?? options.passwords[email] ?? 'nope'),
        imapHost: '127.0.0.1',
        imapPort: extra.imapPort ?? 1,
        imapUsername: email,
        imapPasswordEnc: deps.secrets.encrypt(extra.imapPassword ?? options.passwords[email] ?? 'unused'),
        dailyLimit: extra.dailyLimit ?? 50,
        sendingGap: extra.sendingGap ?? 0,
      },
    });
    return id;
  };
  const campaign = async (c: {
    steps: TestStep[];
    mailboxes: string[];
    settings?: Record<string, unknown>;
    schedule?: { days?: Record<string, boolean>; from?: string; to?: string; timezone?: string };
    parentId?: string;
  }) => {
    const created = await createTestCampaign({ db: db.prisma, organizationId: org.organizationId, workspaceId: ws, steps: c.steps, status: 'ACTIVE', parentId: c.parentId });
    await db.prisma.campaign.update({
      where: { id: created.id },
      data: {
        schedule: {
          days: c.schedule?.days ?? WEEKDAYS,
          timezone: c.schedule?.timezone ?? 'Europe/Oslo',
          timing: { from: c.schedule?.from ?? '09:00', to: c.schedule?.to ?? '17:00' },
        },
        dailyLimit: 1000,
        openTracking: true,
        unsubscribeLink: true,
        ...c.settings,
      },
    });
    await db.prisma.campaignEmailAccount.createMany({ data: c.mailboxes.map((emailAccountId) => ({ campaignId: created.id, emailAccountId })) });
    return created;
  };
  let order = 0;
  const lead = async (campaignId: string, email: string, fields: { firstName?: string | null; companyName?: string | null; custom?: Record<string, string> } = {}) => {
    const id = newId();
    await db.prisma.lead.create({
      data: {
        id,
        organizationId: org.organizationId,
        workspaceId: ws,
        campaignId,
        email,
        emailNormalized: email.toLowerCase(),
        firstName: fields.firstName === undefined ? 'Ada' : fields.firstName,
        companyName: fields.companyName === undefined ? 'Acme' : fields.companyName,
        customVariables: fields.custom ?? {},
        // Due in the order created, before the simulated start.
        nextSendAt: new Date(Date.parse(options.start) - 86_400_000 + order++ * 1000),
      },
    });
    return id;
  };
  const tick = (d: ServiceDeps = deps) => runSchedulerTick({ deps: d, workspaceIds: [ws] });
  /** Ticks every `stepMs` until `until`. */
  const runUntil = async (until: string, stepMs = 5 * 60_000) => {
    while (clock.at.getTime() < Date.parse(until)) {
      await tick();
      clock.advance(stepMs);
    }
  };
  return { org, ws, clock, deps, mailbox, campaign, lead, tick, runUntil };
}
