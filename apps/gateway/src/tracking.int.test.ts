// The links inside sent e-mails, over HTTP: the open pixel and the unsubscribe page with
// its RFC 8058 one-click POST.
import { beforeAll, describe, expect, it } from 'vitest';
import { trackingLinks, trackingToken } from '@outreach/core';
import { createTestCampaign, createTestLead, recordTestSend } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

const { server, org } = useTestServer();
let campaign: Awaited<ReturnType<typeof createTestCampaign>>;

beforeAll(async () => {
  campaign = await createTestCampaign({
    db: server.db.prisma,
    organizationId: org.organizationId,
    workspaceId: org.workspaceId,
    status: 'ACTIVE',
    steps: [{ variations: [{ label: 'A' }] }],
  });
});

/** A lead with one send, `sentAgoMs` ago (the test server runs on the system clock). */
async function send(email: string, sentAgoMs = 60_000) {
  const base = { db: server.db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId, campaignId: campaign.id };
  const lead = await createTestLead({ ...base, email });
  await server.db.prisma.lead.update({ where: { id: lead.id }, data: { status: 'CONTACTED', currentStep: 1, nextSendAt: new Date(Date.now() + 86_400_000) } });
  const sent = await recordTestSend({ ...base, leadId: lead.id, step: 1, variationId: campaign.variations[1]!['A']!, variationLabel: 'A', sentAt: new Date(Date.now() - sentAgoMs) });
  const secrets = server.deps.service.secrets;
  const links = trackingLinks({ secrets, publicUrl: server.url, sendId: sent.id });
  return { leadId: lead.id, sendId: sent.id, ...links };
}

const opens = (sentEmailId: string) => server.db.prisma.emailEvent.findMany({ where: { sentEmailId, type: 'OPEN' } });

async function expectGif(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/gif');
  expect(response.headers.get('cache-control')).toBe('no-store, no-cache, must-revalidate, private');
  const body = Buffer.from(await response.arrayBuffer());
  expect(body).toHaveLength(43);
  expect(body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
}

describe('open pixel', () => {
  it('answers a transparent GIF and records a human open from a browser a minute after the send', async () => {
    const { sendId, pixelUrl } = await send('human@pixel.test');
    expect(pixelUrl).toMatch(/\/t\/o\/[0-9a-f]{24}\.[A-Za-z0-9_-]{22}\.gif$/);
    await expectGif(await fetch(pixelUrl, { headers: { 'user-agent': CHROME } }));

    const [event, ...more] = await opens(sendId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ isMachine: false, data: { user_agent: CHROME, reason: null, ip: expect.stringMatching(/127\.0\.0\.1$/) } });
    const row = await server.db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } });
    expect(row.openedAt).toEqual(event!.occurredAt);
  });

  it('records a machine open for Google\'s image proxy, leaving opened_at unset', async () => {
    const { sendId, pixelUrl } = await send('proxied@pixel.test');
    await expectGif(await fetch(pixelUrl, { headers: { 'user-agent': GMAIL_PROXY } }));
    expect((await opens(sendId)).map((e) => [e.isMachine, (e.data as { reason: string }).reason])).toEqual([[true, 'proxy']]);
    expect((await server.db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).openedAt).toBeNull();
  });

  it('records a machine open right after the send', async () => {
    const { sendId, pixelUrl } = await send('scanned@pixel.test', 0);
    await expectGif(await fetch(pixelUrl, { headers: { 'user-agent': CHROME } }));
    expect((await opens(sendId)).map((e) => [e.isMachine, (e.data as { reason: string }).reason])).toEqual([[true, 'too_soon']]);
    expect((await server.db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).openedAt).toBeNull();
  });

  it('answers the same GIF to forged, wrong-purpose and malformed tokens and to HEAD, recording nothing', async () => {
    const { sendId, pixelUrl, unsubscribeUrl } = await send('forged@pixel.test');
    const unsubscribeToken = unsubscribeUrl.split('/').pop()!;
    for (const path of [`/t/o/${sendId}.${'A'.repeat(22)}.gif`, `/t/o/${unsubscribeToken}.gif`, '/t/o/nonsense.gif', '/t/o/nonsense']) {
      await expectGif(await fetch(`${server.url}${path}`, { headers: { 'user-agent': CHROME } }));
    }
    const head = await fetch(pixelUrl, { method: 'HEAD', headers: { 'user-agent': CHROME } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/gif');
    expect(await opens(sendId)).toEqual([]);
  });

  it('needs no API key and is not rate limited per key', async () => {
    const { pixelUrl } = await send('nokey@pixel.test');
    const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(pixelUrl, { headers: { 'user-agent': CHROME } })));
    for (const r of responses) await expectGif(r);
  });
});

describe('unsubscribe link', () => {
  const blocklisted = async (value: string) => server.db.prisma.blocklistEntry.findMany({ where: { workspaceId: org.workspaceId, value } });
  const leadOf = (id: string) => server.db.prisma.lead.findUniqueOrThrow({ where: { id } });

  it('GET shows a self-contained confirmation page and unsubscribes no one', async () => {
    const { leadId, unsubscribeUrl } = await send('Page.Viewer@Example.com');
    const response = await fetch(unsubscribeUrl, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    const html = await response.text();
    expect(html).toContain('P***@Example.com');
    expect(html).not.toContain('Page.Viewer');
    expect(html).toMatch(/<form method="post">/);
    expect(html).toContain('name="List-Unsubscribe" value="One-Click"');
    // No external assets: no src attributes, no links, no absolute URLs.
    expect(html).not.toMatch(/\ssrc=|<link|https?:\/\//);
    // Twice, as a link scanner might: still nothing changes.
    await fetch(unsubscribeUrl);
    expect(await leadOf(leadId)).toMatchObject({ status: 'CONTACTED', nextSendAt: expect.any(Date) });
    expect(await blocklisted('page.viewer@example.com')).toEqual([]);
  });

  it('POST with the RFC 8058 one-click body unsubscribes: 200, no redirect, lead stopped, address blocklisted; again: 200, nothing changes', async () => {
    const { leadId, sendId, unsubscribeUrl } = await send('one.click@example.com');
    const oneClick = () =>
      fetch(unsubscribeUrl, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const response = await oneClick();
    expect(response.status).toBe(200);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-robots-tag')).toBe('noindex');
    expect(await response.text()).toContain('o***@example.com</strong> has been unsubscribed');

    expect(await leadOf(leadId)).toMatchObject({ status: 'UNSUBSCRIBED', isCompleted: true, nextSendAt: null, statusReason: 'unsubscribed by the recipient' });
    expect((await blocklisted('one.click@example.com')).map((b) => [b.isDomain, b.createdByLabel])).toEqual([[false, 'UNSUBSCRIBE']]);
    expect((await server.db.prisma.sentEmail.findUniqueOrThrow({ where: { id: sendId } })).unsubscribedAt).toBeInstanceOf(Date);

    const again = await oneClick();
    expect(again.status).toBe(200);
    expect(again.headers.get('location')).toBeNull();
    expect(await again.text()).toContain('already unsubscribed');
    expect(await server.db.prisma.emailEvent.count({ where: { sentEmailId: sendId, type: 'UNSUBSCRIBE' } })).toBe(1);
    expect(await server.db.prisma.leadEvent.count({ where: { leadId, type: 'UNSUBSCRIBED' } })).toBe(1);

    // The page now says so, without a form.
    const pageAfter = await (await fetch(unsubscribeUrl)).text();
    expect(pageAfter).toContain('already unsubscribed');
    expect(pageAfter).not.toContain('<form');
  });

  it('POST with an empty body (or any body) unsubscribes too', async () => {
    const { leadId, unsubscribeUrl } = await send('empty.body@example.com');
    const response = await fetch(unsubscribeUrl, { method: 'POST', redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await leadOf(leadId)).toMatchObject({ status: 'UNSUBSCRIBED' });

    const json = await send('json.body@example.com');
    const r2 = await fetch(json.unsubscribeUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(r2.status).toBe(200);
    expect(await leadOf(json.leadId)).toMatchObject({ status: 'UNSUBSCRIBED' });
  });

  it('a forged or wrong-purpose token is 404 on GET and POST and changes nothing', async () => {
    const { leadId, sendId } = await send('victim@example.com');
    const openToken = trackingToken({ secrets: server.deps.service.secrets, purpose: 'open', sendId });
    for (const token of [`${sendId}.${'A'.repeat(22)}`, openToken, 'nonsense']) {
      const url = `${server.url}/t/u/${token}`;
      const get = await fetch(url);
      expect(get.status).toBe(404);
      expect(get.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await get.text()).toContain('invalid or has expired');
      const post = await fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      expect(post.status).toBe(404);
      expect(post.headers.get('location')).toBeNull();
    }
    expect(await leadOf(leadId)).toMatchObject({ status: 'CONTACTED' });
    expect(await blocklisted('victim@example.com')).toEqual([]);
    expect(await server.db.prisma.emailEvent.count({ where: { sentEmailId: sendId } })).toBe(0);
  });
});
