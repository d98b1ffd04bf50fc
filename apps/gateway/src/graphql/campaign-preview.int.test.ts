// campaign.preview and campaign.sendTest over GraphQL and tRPC: the answer, and errors
// naming their field (no REST path: they are not vendor operations).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, startSmtpServer, type SmtpTestServer } from '@outreach/core/testing';
import { trpcFailure } from '../testing/test-server';
import { useTestServer } from '../testing/suite';

const { server, org } = useTestServer();
let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpServer({ users: { 'alice@sender.test': 'alice-pw', 'bob@sender.test': 'alice-pw' } });
}, 30_000);
afterAll(async () => {
  await smtp?.close();
});

async function setup(sender: string) {
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  const campaign = await createTestCampaign({ ...base, steps: [{ variations: [{ label: 'A', subject: '{Hello|Hello} {{first_name}}', body: '<p>Hi {{first_name}} at {{company_name}}</p>' }] }] });
  const lead = await createTestLead({ ...base, campaignId: campaign.id, email: 'grace@lead.test' });
  await server.db.prisma.lead.update({ where: { id: lead.id }, data: { firstName: 'Grace', companyName: null } });
  const mailbox = newId();
  await server.db.prisma.emailAccount.create({
    data: {
      id: mailbox,
      organizationId: org.organizationId,
      workspaceId: org.workspaceId,
      email: sender,
      emailNormalized: sender,
      firstName: 'Alice',
      lastName: 'Sender',
      smtpHost: '127.0.0.1',
      smtpPort: smtp.port,
      smtpUsername: sender,
      smtpPasswordEnc: server.deps.service.secrets.encrypt('alice-pw'),
      imapHost: '127.0.0.1',
      imapPort: 1,
      imapUsername: sender,
      imapPasswordEnc: server.deps.service.secrets.encrypt('alice-pw'),
    },
  });
  return { campaign, lead, mailbox };
}

describe('campaign preview and test send', () => {
  it('GraphQL: previews a step for a lead, sends a test, and names the field of a bad request', async () => {
    const { campaign, lead, mailbox } = await setup('alice@sender.test');
    const preview = await server.graphql(
      `query($ws: ID!, $id: ID!, $lead: ID) { campaign(workspaceId: $ws, id: $id) { preview(step: 1, variation: "A", leadId: $lead) { subject html text missing leadEmail senderEmail } } }`,
      { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, lead: lead.id } },
    );
    expect(preview.body.errors).toBeUndefined();
    expect(preview.body.data.campaign.preview).toMatchObject({ subject: 'Hello Grace', missing: ['company_name'], leadEmail: 'grace@lead.test', senderEmail: null });
    expect(preview.body.data.campaign.preview.text).toContain('Hi Grace at {{company_name}}');

    const send = `mutation($ws: ID!, $id: ID!, $to: String!, $mb: ID!, $step: Int!) { sendCampaignTest(workspaceId: $ws, campaignId: $id, step: $step, variation: "A", sample: true, to: $to, emailAccountId: $mb) { subject from messageId } }`;
    const sent = await server.graphql(send, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, to: 'me@review.test', mb: mailbox, step: 1 } });
    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data.sendCampaignTest).toMatchObject({ subject: '[Test] Hello Alex', from: 'alice@sender.test' });
    expect(smtp.messages.filter((m) => m.to.includes('me@review.test'))).toHaveLength(1);

    const badStep = await server.graphql(send, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, to: 'me@review.test', mb: mailbox, step: 2 } });
    expect(badStep.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'step' }] });
    const badTo = await server.graphql(send, { key: org.apiKey, variables: { ws: org.workspaceId, id: campaign.id, to: 'nope', mb: mailbox, step: 1 } });
    expect(badTo.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'to' }] });
    expect(smtp.messages.filter((m) => m.to.includes('me@review.test'))).toHaveLength(1);
  });

  it('tRPC: campaign.preview and campaign.sendTest, with 4xx naming the field', async () => {
    const { campaign, lead, mailbox } = await setup('bob@sender.test');
    const trpc = server.trpc(org.apiKey);
    const preview = await trpc.campaign.preview.query({ workspace_id: org.workspaceId, campaign_id: campaign.id, step: 1, variation: 'A', lead_id: lead.id });
    expect(preview.subject).toBe('Hello Grace');
    expect(await trpcFailure(() => trpc.campaign.preview.query({ workspace_id: org.workspaceId, campaign_id: campaign.id, step: 1, variation: 'Z' }))).toMatchObject({ status: 400, field: 'variation' });
    await server.db.prisma.emailAccount.update({ where: { id: mailbox }, data: { status: 'DISCONNECTED' } });
    expect(
      await trpcFailure(() => trpc.campaign.sendTest.mutate({ workspace_id: org.workspaceId, campaign_id: campaign.id, step: 1, variation: 'A', to: 'me2@review.test', email_account_id: mailbox })),
    ).toMatchObject({ status: 412, field: 'email_account_id' });
    expect(smtp.messages.filter((m) => m.to.includes('me2@review.test'))).toHaveLength(0);
  });
});
