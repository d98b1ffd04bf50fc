// Requests the vendor accepts that we used to refuse (issue #13, items 1–5), replayed as the
// vendor's clients send them: a plain fetch with the key header and the vendor's body or query.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@outreach/db';
import { createTestCampaign, createTestLead, createTestMailbox } from '@outreach/core/testing';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let ws: string;

beforeAll(() => {
  ws = org.workspaceId;
});

/** One call as a client makes it: the key header, the query in the path, a JSON body. */
async function call(method: string, path: string, body?: unknown, key: string = org.apiKey): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();

async function newCampaign(name = 'Vendor client') {
  return (await createTestCampaign({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, name })).id;
}

async function campaignObject(campaignId: string) {
  const listed = await call('GET', `/campaign/list-all?${query({ workspace_id: ws, campaign_id: campaignId })}`);
  expect(listed.status).toBe(200);
  return listed.body[0];
}

const FLAGS = ['send_as_txt', 'is_emailopened_tracking', 'is_unsubscribed_link', 'stop_on_lead_replied', 'is_pause_on_bouncerate'] as const;
const flagsOf = (campaign: Record<string, unknown>) => Object.fromEntries(FLAGS.map((f) => [f, campaign[f]]));

describe('1. boolean inputs as "yes"/"no", 1/0 and "true"/"false"', () => {
  it('PATCH /campaign/update/campaign takes every flag as "yes"/"no", 1/0 and "true"/"false"', async () => {
    const campaignId = await newCampaign();
    const yesNo = await call('PATCH', '/campaign/update/campaign', {
      workspace_id: ws,
      campaign_id: campaignId,
      send_as_txt: 'yes',
      is_emailopened_tracking: 'no',
      is_unsubscribed_link: 'no',
      stop_on_lead_replied: 'no',
      is_pause_on_bouncerate: 'yes',
    });
    expect(yesNo.status).toBe(200);
    expect(flagsOf(await campaignObject(campaignId))).toEqual({
      send_as_txt: true,
      is_emailopened_tracking: false,
      is_unsubscribed_link: false,
      stop_on_lead_replied: false,
      is_pause_on_bouncerate: true,
    });

    const mixed = await call('PATCH', '/campaign/update/campaign', {
      workspace_id: ws,
      campaign_id: campaignId,
      send_as_txt: 'False',
      is_emailopened_tracking: 1,
      is_unsubscribed_link: 'TRUE',
      stop_on_lead_replied: '1',
      is_pause_on_bouncerate: 0,
    });
    expect(mixed.status).toBe(200);
    // Outputs keep their JSON booleans, whatever form the input took.
    expect(flagsOf(await campaignObject(campaignId))).toEqual({
      send_as_txt: false,
      is_emailopened_tracking: true,
      is_unsubscribed_link: true,
      stop_on_lead_replied: true,
      is_pause_on_bouncerate: false,
    });

    const bad = await call('PATCH', '/campaign/update/campaign', { workspace_id: ws, campaign_id: campaignId, stop_on_lead_replied: 'maybe' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'stop_on_lead_replied', message: expect.stringContaining('must be true or false') }]);
  });

  it('takes the same forms on the other flags: archive, webhooks, lead upload, unibox preview', async () => {
    const archived = await newCampaign();
    expect((await call('DELETE', '/campaign/delete', { workspace_id: ws, campaign_id: archived, is_archive: true })).status).toBe(200);
    expect((await call('GET', `/campaign/get/status?${query({ workspace_id: ws, campaign_id: archived })}`)).body.status).toBe('ARCHIVED');

    const hook = await call('POST', '/hook/add', {
      workspace_id: ws,
      url: 'https://hooks.example.com/outreach',
      camp_ids: ['ALL'],
      event_types: ['ALL_EMAIL_REPLIES'],
      ignore_ooo: 'yes',
      ignore_automatic: true,
    });
    expect(hook.status).toBe(200);
    const hooks = await call('GET', `/hook/list?${query({ workspace_id: ws })}`);
    // The list answers the vendor's 0/1 integers.
    expect(hooks.body.hooks.find((h: any) => h._id === hook.body._id)).toMatchObject({ ignore_ooo: 1, ignore_automatic: 1 });

    const first = await newCampaign('First');
    const second = await newCampaign('Second');
    await createTestLead({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, campaignId: first, email: 'taken@lead.example' });
    const added = await call('POST', '/lead/add', {
      workspace_id: ws,
      campaign_id: second,
      skip_if_in_workspace: 'yes',
      resume_camp_if_completed: 'no',
      leads: [{ email: 'taken@lead.example' }, { email: 'fresh@lead.example' }],
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ leads_uploaded: 1, skipped: 1 });

    expect((await call('GET', `/unibox/emails?${query({ workspace_id: ws, preview_only: 'YES' })}`)).status).toBe(200);
    const badPreview = await call('GET', `/unibox/emails?${query({ workspace_id: ws, preview_only: 'perhaps' })}`);
    expect(badPreview.status).toBe(400);
    expect(badPreview.body.errors[0].field).toBe('preview_only');
  });

  it('keeps GraphQL flag arguments Boolean', async () => {
    const campaignId = await newCampaign();
    const answer = await server.graphql(
      `mutation($ws: ID!, $id: ID!) { updateCampaign(workspaceId: $ws, id: $id, sendAsText: true, openTracking: false) { sendAsText openTracking } }`,
      { key: org.apiKey, variables: { ws, id: campaignId } },
    );
    expect(answer.body).toEqual({ data: { updateCampaign: { sendAsText: true, openTracking: false } } });
    const typed = await server.graphql(`{ __type(name: "Mutation") { fields { name args { name type { name kind } } } } }`, { key: org.apiKey });
    const args = (field: string) => typed.body.data.__type.fields.find((f: any) => f.name === field).args;
    expect(args('updateCampaign').find((a: any) => a.name === 'sendAsText').type).toEqual({ name: 'Boolean', kind: 'SCALAR' });
    expect(args('addWebhook').find((a: any) => a.name === 'ignoreOoo').type).toEqual({ name: 'Boolean', kind: 'SCALAR' });
  });
});

describe('2. schedules[].end_date "" and null mean no end date', () => {
  const schedule = { days: { '1': true, '2': true }, timezone: 'Europe/Paris', timing: { from: '09:00', to: '17:00' } };

  it('clears the end date with "" or null on PATCH /campaign/update/campaign, and with "" on set/schedules', async () => {
    const campaignId = await newCampaign();
    const dated = await call('PATCH', '/campaign/update/campaign', {
      workspace_id: ws,
      campaign_id: campaignId,
      schedules: [{ ...schedule, start_date: '2026-12-01', end_date: '2026-12-31' }],
    });
    expect(dated.status).toBe(200);
    expect(await campaignObject(campaignId)).toMatchObject({ camp_st_date: '2026-12-01', camp_end_date: '2026-12-31' });

    const empty = await call('PATCH', '/campaign/update/campaign', { workspace_id: ws, campaign_id: campaignId, schedules: [{ ...schedule, end_date: '' }] });
    expect(empty.status).toBe(200);
    expect(await campaignObject(campaignId)).toMatchObject({ camp_st_date: '2026-12-01', camp_end_date: null });

    await call('PATCH', '/campaign/update/campaign', { workspace_id: ws, campaign_id: campaignId, schedules: [{ ...schedule, end_date: '2027-01-31' }] });
    const nulled = await call('PATCH', '/campaign/update/campaign', { workspace_id: ws, campaign_id: campaignId, schedules: [{ ...schedule, end_date: null }] });
    expect(nulled.status).toBe(200);
    expect((await campaignObject(campaignId)).camp_end_date).toBeNull();

    const set = await call('POST', '/campaign/set/schedules', { workspace_id: ws, campaign_id: campaignId, start_date: '2026-12-02', end_date: '', schedules: [schedule] });
    expect(set.status).toBe(200);
    expect(await campaignObject(campaignId)).toMatchObject({ camp_st_date: '2026-12-02', camp_end_date: null });

    const malformed = await call('PATCH', '/campaign/update/campaign', { workspace_id: ws, campaign_id: campaignId, schedules: [{ ...schedule, end_date: '31/12/2026' }] });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].field).toBe('schedules.0.end_date');
  });
});

describe('3. limit up to 1,000 on every paged list, clamped above', () => {
  it('pages /lead/workspace-leads with limit=1000 to a short page; a larger limit reads 1,000', async () => {
    const ownOrg = await import('@outreach/core/testing').then((t) => t.createTestOrganization({ db: server.db }));
    const campaignId = (await createTestCampaign({ db: server.db.prisma, organizationId: ownOrg.organizationId, workspaceId: ownOrg.workspaceId })).id;
    const leads = Array.from({ length: 1003 }, (_, i) => ({ email: `lead${i}@many.example` }));
    const added = await call('POST', '/lead/add', { workspace_id: ownOrg.workspaceId, campaign_id: campaignId, leads }, ownOrg.apiKey);
    expect(added.body).toMatchObject({ leads_uploaded: 1003 });

    // The client's loop: pages of 1,000 until a page comes back short.
    const seen = new Set<string>();
    let pages = 0;
    for (let page = 1; ; page++) {
      const got = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ownOrg.workspaceId, page, limit: 1000 })}`, undefined, ownOrg.apiKey);
      expect(got.status).toBe(200);
      pages++;
      for (const lead of got.body) seen.add(lead._id);
      if (got.body.length < 1000) break;
    }
    expect(pages).toBe(2);
    expect(seen.size).toBe(1003);

    const clamped = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ownOrg.workspaceId, limit: 5000 })}`, undefined, ownOrg.apiKey);
    expect(clamped.status).toBe(200);
    expect(clamped.body).toHaveLength(1000);
  });

  it('reads /account/list with limit=200 and limit=500, and takes limits up to 1,000 on the other lists', async () => {
    for (const email of ['a1@mailbox.example', 'a2@mailbox.example', 'a3@mailbox.example']) {
      await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, email });
    }
    for (const limit of [200, 500]) {
      const listed = await call('GET', `/account/list?${query({ workspace_id: ws, limit })}`);
      expect(listed.status).toBe(200);
      expect(listed.body.accounts.map((a: any) => a.email)).toEqual(expect.arrayContaining(['a1@mailbox.example', 'a2@mailbox.example', 'a3@mailbox.example']));
    }
    for (const path of ['/campaign/list-all', '/campaign/list', '/tags/list', '/blocklist/list', '/unibox/emails', '/unibox/other-emails', '/account/list']) {
      for (const limit of [1000, 1001, 100000]) {
        const listed = await call('GET', `${path}?${query({ workspace_id: ws, limit })}`);
        expect({ path, limit, status: listed.status }).toEqual({ path, limit, status: 200 });
      }
      const zero = await call('GET', `${path}?${query({ workspace_id: ws, limit: 0 })}`);
      expect({ path, status: zero.status, field: zero.body.errors?.[0]?.field }).toEqual({ path, status: 400, field: 'limit' });
    }
    const emails = await call('GET', `/unibox/campaign-emails?${query({ workspace_id: ws, lead: 'nobody@lead.example', limit: 1000 })}`);
    expect(emails.status).toBe(200);
  });
});

describe('4. /lead/workspace-leads?sort=_id', () => {
  it('sorts by lead id in either direction and pages on with a page_trail', async () => {
    const campaignId = await newCampaign('By id');
    // Ids chosen against the creation order, so sorting by id is told apart from sorting by time.
    const ids = ['6f0000000000000000000003', '6f0000000000000000000001', '6f0000000000000000000002'];
    for (const [i, id] of ids.entries()) {
      await server.db.prisma.lead.create({
        data: {
          id,
          organizationId: org.organizationId,
          workspaceId: ws,
          campaignId,
          email: `byid${i}@lead.example`,
          emailNormalized: `byid${i}@lead.example`,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        },
      });
    }
    const sorted = [...ids].sort();
    const asc = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: '_id', direction: 'asc' })}`);
    expect(asc.status).toBe(200);
    expect(asc.body.map((l: any) => l._id)).toEqual(sorted);
    const desc = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: '_id', direction: 'desc' })}`);
    expect(desc.body.map((l: any) => l._id)).toEqual([...sorted].reverse());
    const byTime = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: 'created_at', direction: 'asc' })}`);
    expect(byTime.body.map((l: any) => l._id)).toEqual(ids);
    const byModified = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: 'modified_at' })}`);
    expect(byModified.status).toBe(200);

    const firstPage = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: '_id', direction: 'asc', limit: 2 })}`);
    const last = firstPage.body[1]._id;
    const trail = Buffer.from(JSON.stringify(['_id', 'asc', last, last])).toString('base64url');
    const next = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, campaign_id: campaignId, sort: '_id', direction: 'asc', limit: 2, page_trail: trail })}`);
    expect(next.body.map((l: any) => l._id)).toEqual([sorted[2]]);

    const bad = await call('GET', `/lead/workspace-leads?${query({ workspace_id: ws, sort: 'email' })}`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toEqual({ field: 'sort', message: 'must be created_at, modified_at or _id' });
  });
});

describe('5. POST and PUT /client with the vendor body', () => {
  it('creates a client from client_* fields and workspaces[], lists it as client_permissions, and PUT replaces the grants', async () => {
    const second = await call('POST', '/workspaces/add', { workspace_name: 'Client second' });
    expect(second.status).toBe(200);
    const ws2: string = second.body._id;

    const created = await call('POST', '/client', {
      workspace_id: ws,
      client_email: 'nova.smith@client.example',
      client_first_name: 'Nova',
      client_last_name: '',
      client_business_name: '',
      notify_pos_reply_email: 'nova@client.example, Sales@Client.example',
      workspaces: [{ id: ws, permissions: ['TAG_LIST', 'CAMPAIGN_LIST'], hide_labels: [] }],
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: 'success', client_id: expect.stringMatching(/^[0-9a-f]{24}$/), api_key: expect.any(String) });
    const clientId = created.body.client_id;
    const clientKey = created.body.api_key;

    const listed = await call('GET', '/client/');
    expect(listed.body.clients.find((c: any) => c.client_id === clientId)).toEqual({
      client_id: clientId,
      client_email: 'nova.smith@client.example',
      client_first_name: 'Nova',
      client_last_name: '',
      client_business_name: '',
      notify_pos_reply_email: 'nova@client.example,sales@client.example',
      status: 'ACTIVE',
      client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST', 'CAMPAIGN_LIST'], hide_labels: [] }],
    });

    const put = await call('PUT', '/client', {
      workspace_id: ws,
      client_id: clientId,
      client_email: 'nova.smith@client.example',
      client_first_name: 'Nova',
      client_last_name: 'Smith',
      client_business_name: 'Nova Consulting Ltd',
      workspaces: [{ id: ws2, permissions: ['TAG_LIST'], hide_labels: ['IN_SEQUENCE'] }],
    });
    expect(put).toEqual({ status: 200, body: { status: 'success' } });
    const after = (await call('GET', '/client/')).body.clients.find((c: any) => c.client_id === clientId);
    expect(after).toMatchObject({
      client_last_name: 'Smith',
      client_business_name: 'Nova Consulting Ltd',
      notify_pos_reply_email: 'nova@client.example,sales@client.example',
      client_permissions: [{ workspace_id: ws2, permissions: ['TAG_LIST'], hide_labels: ['IN_SEQUENCE'] }],
    });
    // The key (first used now, so not cached with the old grants) reaches the new grant only.
    expect((await call('GET', `/tags/list?${query({ workspace_id: ws2 })}`, undefined, clientKey)).status).toBe(200);
    expect((await call('GET', `/tags/list?${query({ workspace_id: ws })}`, undefined, clientKey)).status).toBe(403);
  });

  it('refuses grants naming another organization\'s workspace, both grant lists at once, and neither', async () => {
    const body = { client_email: 'edge@client.example', client_first_name: 'Edge', client_last_name: '', client_business_name: '' };
    const foreignGrant = await call('POST', '/client', { ...body, workspaces: [{ id: foreign.workspaceId, permissions: ['TAG_LIST'], hide_labels: [] }] });
    expect(foreignGrant.status).toBe(403);
    expect(foreignGrant.body.message).toContain('workspaces.0.id');

    const both = await call('POST', '/client', {
      ...body,
      workspaces: [{ id: ws, permissions: ['TAG_LIST'], hide_labels: [] }],
      client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'] }],
    });
    expect(both.status).toBe(400);
    expect(both.body.errors[0].field).toBe('workspaces');
    const neither = await call('POST', '/client', body);
    expect(neither.status).toBe(400);
    expect(neither.body.errors[0].field).toBe('workspaces');

    const badPermission = await call('POST', '/client', { ...body, workspaces: [{ id: ws, permissions: ['ROOT'], hide_labels: [] }] });
    expect(badPermission.status).toBe(400);
    expect(badPermission.body.errors[0].field).toBe('workspaces.0.permissions.0');
    const badNotify = await call('POST', '/client', { ...body, notify_pos_reply_email: 'ok@client.example, not-an-address', workspaces: [] });
    expect(badNotify.status).toBe(400);
    expect(badNotify.body.errors[0].field).toBe('notify_pos_reply_email');
    const unknown = await call('PUT', '/client', { ...body, client_id: newId(), workspaces: [] });
    expect(unknown.status).toBe(404);
  });
});
