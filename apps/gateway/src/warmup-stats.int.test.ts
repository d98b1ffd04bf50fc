// Issue #15 item 4: `GET /account/warmup-stats` in the vendor's shape, the same operation over tRPC and GraphQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestMailbox } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let ws: string;
let ann: { id: string };
let bob: { id: string };

beforeAll(async () => {
  ws = org.workspaceId;
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws };
  ann = await createTestMailbox({ ...base, email: 'ann@alpha.test' });
  bob = await createTestMailbox({ ...base, email: 'bob@beta.test' });
  const cy = await createTestMailbox({ ...base, email: 'cy@gamma.test' });
  const other = await createTestMailbox({ db: server.db.prisma, organizationId: foreign.organizationId, workspaceId: foreign.workspaceId, email: 'x@other.test' });
  const warmup = (from: { id: string }, to: { id: string }, sentAt: string, placement: string, provider: string, workspaceId = ws, organizationId = org.organizationId) => {
    const id = newId();
    return {
      id,
      organizationId,
      workspaceId,
      senderAccountId: from.id,
      recipientAccountId: to.id,
      code: `c${id}`,
      messageId: `${id}@test`,
      threadId: `${id}@test`,
      subject: 'Hello',
      recipientProvider: provider,
      sentAt: new Date(sentAt),
      placement,
    };
  };
  await server.db.prisma.warmupMessage.createMany({
    data: [
      warmup(ann, bob, '2026-03-02T09:00:00Z', 'INBOX', 'GOOGLE'),
      warmup(ann, cy, '2026-03-02T10:00:00Z', 'SPAM', 'MICROSOFT'),
      warmup(ann, bob, '2026-03-03T09:00:00Z', 'PROMOTIONS', 'GOOGLE'),
      warmup(bob, ann, '2026-03-03T09:00:00Z', 'INBOX', 'OTHER'),
      warmup(bob, cy, '2026-03-03T23:59:00Z', 'PENDING', 'MICROSOFT'),
      // Outside the range, and another organization's.
      warmup(ann, bob, '2026-03-05T00:00:00Z', 'INBOX', 'GOOGLE'),
      warmup(other, other, '2026-03-02T09:00:00Z', 'SPAM', 'OTHER', foreign.workspaceId, foreign.organizationId),
    ],
  });
});

const expected = {
  // 4 placed of 5 sent: 2 inbox, 1 spam, 1 promotions; recipients 2 Google, 2 Microsoft, 1 other.
  inbox_percent: 50,
  spam_percent: 25,
  promotion_percent: 25,
  google_percent: 40,
  microsoft_percent: 40,
  other_percent: 20,
  total_warmup_sent: 5,
  total_inboxes: 3,
  chart_data: [
    { date: '2026-03-02', sent: 2, inbox: 1, spam: 1, promotion: 0 },
    { date: '2026-03-03', sent: 3, inbox: 1, spam: 0, promotion: 1 },
    { date: '2026-03-04', sent: 0, inbox: 0, spam: 0, promotion: 0 },
  ],
};

describe('warmup stats', () => {
  it('answers the vendor shape over REST, for the workspace and for one mailbox', async () => {
    const res = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-04' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ emailAcc: expected });
    const one = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-04', email_acc_id: bob.id } });
    expect(one.body.emailAcc).toMatchObject({ total_warmup_sent: 2, inbox_percent: 100, total_inboxes: 2, other_percent: 50, microsoft_percent: 50 });
  });

  it('answers 400 naming the field for a missing or reversed date, and 403 for another organization\'s workspace', async () => {
    const missing = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: ws, end_date: '2026-03-04' } });
    expect([missing.status, missing.body.errors?.[0]?.field]).toEqual([400, 'start_date']);
    const reversed = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: ws, start_date: '2026-03-04', end_date: '2026-03-02' } });
    expect([reversed.status, reversed.body.errors?.[0]?.field]).toEqual([400, 'end_date']);
    const badId = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-04', email_acc_id: 'nope' } });
    expect([badId.status, badId.body.errors?.[0]?.field]).toEqual([400, 'email_acc_id']);
    const other = await server.rest('GET', '/account/warmup-stats', { key: org.apiKey, query: { workspace_id: foreign.workspaceId, start_date: '2026-03-02', end_date: '2026-03-04' } });
    expect(other.status).toBe(403);
  });

  it('is the same operation over tRPC and GraphQL', async () => {
    const viaTrpc = await server.trpc(org.apiKey).emailAccount.warmupStats.query({ workspace_id: ws, start_date: '2026-03-02', end_date: '2026-03-04' });
    expect(viaTrpc).toEqual({ emailAcc: expected });
    const viaGraphql = await server.graphql(
      `query($ws: ID!) { workspace(id: $ws) { warmupStats(startDate: "2026-03-02", endDate: "2026-03-04") {
        inboxPercent spamPercent promotionPercent googlePercent microsoftPercent otherPercent totalWarmupSent totalInboxes chartData { date sent inbox spam promotion } } } }`,
      { key: org.apiKey, variables: { ws } },
    );
    expect(viaGraphql.body.errors).toBeUndefined();
    expect(viaGraphql.body.data.workspace.warmupStats).toEqual({
      inboxPercent: 50,
      spamPercent: 25,
      promotionPercent: 25,
      googlePercent: 40,
      microsoftPercent: 40,
      otherPercent: 20,
      totalWarmupSent: 5,
      totalInboxes: 3,
      chartData: expected.chart_data,
    });
  });

  it('is in the OpenAPI document', async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths['/account/warmup-stats'] ?? {})).toEqual(['get']);
  });
});
