// Writes the rows that the sending engine will write later (campaigns, steps,
// variations, leads, sends, opens, replies), so operations that read them can be
// tested before the engine exists.
import { newId, type Database } from '@outreach/db';

type Db = Database['prisma'];

export interface TestStep {
  waitTime?: number;
  variations: { label: string; name?: string | null; subject?: string; body?: string; isActive?: boolean; isDeleted?: boolean }[];
}

export async function createTestCampaign(options: {
  db: Db;
  organizationId: string;
  workspaceId: string;
  name?: string;
  status?: 'DRAFT' | 'ACTIVE' | 'PAUSED' | 'COMPLETED' | 'ARCHIVED';
  openTracking?: boolean;
  parentId?: string;
  steps?: TestStep[];
}) {
  const id = newId();
  await options.db.campaign.create({
    data: {
      id,
      organizationId: options.organizationId,
      workspaceId: options.workspaceId,
      name: options.name ?? `Campaign ${id.slice(-6)}`,
      status: options.status ?? 'DRAFT',
      openTracking: options.openTracking ?? true,
      parentId: options.parentId ?? null,
      type: options.parentId ? 'subseq' : 'parent',
    },
  });
  const variations: Record<string, Record<string, string>> = {};
  for (const [index, step] of (options.steps ?? []).entries()) {
    const stepNumber = index + 1;
    const stepId = newId();
    await options.db.sequenceStep.create({
      data: { id: stepId, workspaceId: options.workspaceId, campaignId: id, step: stepNumber, waitTime: step.waitTime ?? 2 },
    });
    variations[stepNumber] = {};
    for (const v of step.variations) {
      const variationId = newId();
      await options.db.variation.create({
        data: {
          id: variationId,
          workspaceId: options.workspaceId,
          campaignId: id,
          stepId,
          label: v.label,
          name: v.name ?? null,
          subject: v.subject ?? `Step ${stepNumber} ${v.label}`,
          body: v.body ?? `<p>Body ${stepNumber} ${v.label}</p>`,
          isActive: v.isActive ?? true,
          isDeleted: v.isDeleted ?? false,
        },
      });
      (variations[stepNumber] as Record<string, string>)[v.label] = variationId;
    }
  }
  return { id, variations };
}

export async function createTestLead(options: {
  db: Db;
  organizationId: string;
  workspaceId: string;
  campaignId: string;
  email: string;
  label?: string | null;
  firstName?: string;
}) {
  const id = newId();
  await options.db.lead.create({
    data: {
      id,
      organizationId: options.organizationId,
      workspaceId: options.workspaceId,
      campaignId: options.campaignId,
      email: options.email.trim(),
      emailNormalized: options.email.trim().toLowerCase(),
      label: options.label ?? null,
      firstName: options.firstName ?? null,
    },
  });
  await options.db.organization.update({ where: { id: options.organizationId }, data: { leadCount: { increment: 1 } } });
  return { id };
}

export async function createTestMailbox(options: { db: Db; organizationId: string; workspaceId: string; email: string }) {
  const id = newId();
  await options.db.emailAccount.create({
    data: {
      id,
      organizationId: options.organizationId,
      workspaceId: options.workspaceId,
      email: options.email,
      emailNormalized: options.email.toLowerCase(),
      smtpHost: '127.0.0.1',
      smtpPort: 2525,
      smtpUsername: options.email,
      smtpPasswordEnc: 'test',
      imapHost: '127.0.0.1',
      imapPort: 1143,
      imapUsername: options.email,
      imapPasswordEnc: 'test',
    },
  });
  return { id };
}

/** One send, with optional first open and first reply on it. */
export async function recordTestSend(options: {
  db: Db;
  organizationId: string;
  workspaceId: string;
  campaignId: string;
  parentCampaignId?: string | null;
  leadId: string;
  emailAccountId?: string | null;
  step: number;
  variationId: string;
  variationLabel: string;
  sentAt: Date;
  openedAt?: Date | null;
  repliedAt?: Date | null;
  isText?: boolean;
  subject?: string;
  body?: string;
}) {
  const id = newId();
  await options.db.sentEmail.create({
    data: {
      id,
      organizationId: options.organizationId,
      workspaceId: options.workspaceId,
      campaignId: options.campaignId,
      parentCampaignId: options.parentCampaignId ?? null,
      leadId: options.leadId,
      emailAccountId: options.emailAccountId ?? null,
      step: options.step,
      variationId: options.variationId,
      variationLabel: options.variationLabel,
      messageId: `${id}@outreach.test`,
      subject: options.subject ?? `Subject ${options.step}${options.variationLabel}`,
      body: options.body ?? `<p>Body ${options.step}${options.variationLabel}</p>`,
      isText: options.isText ?? false,
      sentAt: options.sentAt,
      openedAt: options.openedAt ?? null,
      repliedAt: options.repliedAt ?? null,
    },
  });
  return { id, messageId: `${id}@outreach.test` };
}
