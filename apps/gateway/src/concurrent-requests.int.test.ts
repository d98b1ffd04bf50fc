// Requests that race each other over the same rows (a campaign deleted while it is edited,
// duplicated and given a subsequence; a mailbox deleted while it is tagged, warmed up and moved;
// a rule, a client, a webhook and a unibox thread deleted while they are changed or used) each
// get the answer they would get alone, before or after the other: a success or the operation's
// own 4xx, never a 500 nor a generic `resource.not_found`. On PostgreSQL these met foreign-key
// violations, deadlocks and vanished rows (operation-retry.ts); the embedded database runs one
// statement at a time, so there the test guards the same answers.
import { describe, expect, it } from 'vitest';
import { createTestMailbox, createTestThread } from '@outreach/core/testing';
import { addWorkspace, useTestServer } from './testing/suite';

const { server, org } = useTestServer({ env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' } });
const SEQUENCE = [{ step: 1, wait_time: 0, variations: [{ variation: 'A', subject: 'Hello', body: '<p>Hi</p>' }] }];
const SCHEDULE = { days: { '1': true, '2': true, '3': true }, timezone: 'Europe/Berlin', timing: { from: '09:00', to: '17:00' } };
const RULE = { metric: 'bounce_rate', operator: 'GT', threshold: 5, window_days: 7, actions: [{ type: 'PAUSE_SENDING' }] };
const ROUNDS = 6;

interface Answer {
  request: string;
  status: number;
  code?: string;
}

describe('requests racing over the same rows', () => {
  it('each answer a success or their own 4xx, never a 500', async () => {
    const ws = org.workspaceId;
    const answers: Answer[] = [];
    const call = async (request: string, method: string, path: string, input: Record<string, unknown>) => {
      const r = await server.rest(method, path, { key: org.apiKey, body: { workspace_id: ws, ...input } });
      answers.push({ request, status: r.status, ...(r.status >= 400 ? { code: r.body?.code } : {}) });
    };
    const ok = async (method: string, path: string, input: Record<string, unknown>) => {
      const r = await server.rest(method, path, { key: org.apiKey, body: { workspace_id: ws, ...input } });
      expect(r.status, `${method} ${path}: ${JSON.stringify(r.body)}`).toBe(200);
      return r.body;
    };

    for (let round = 0; round < ROUNDS; round++) {
      const address = `sender${round}@out.test`;
      const mailbox = await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, email: address });
      const campaignId = (await ok('POST', '/campaign/add/campaign', { camp_name: `Race ${round}` })).id as string;
      await ok('PATCH', '/campaign/update/campaign', { campaign_id: campaignId, sequences: SEQUENCE, email_accounts: [address], schedules: SCHEDULE });
      await ok('POST', '/lead/add', { campaign_id: campaignId, leads: Array.from({ length: 10 }, (_, i) => ({ email: `lead${round}-${i}@example.com` })) });
      const tagId = (await ok('POST', '/tags/create', { name: `Tag ${round}`, color: '#000' })).tag_id as string;
      const ruleId = (await ok('POST', '/account/automation/create', { ...RULE, name: `Rule ${round}` })).rule._id as string;
      const clientId = (await ok('POST', '/client', { client_email: `client${round}@example.com`, client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'] }] })).client_id as string;
      const other = await addWorkspace(server, org.apiKey, `Elsewhere ${round}`);
      const hookId = (await ok('POST', '/hook/add', { url: 'https://hooks.example/in', event_types: ['ALL_EMAIL_REPLIES'], camp_ids: [campaignId] }))._id as string;
      const thread = await createTestThread({
        db: server.db.prisma,
        workspaceId: ws,
        emailAccountId: mailbox.id,
        messages: [{ direction: 'OUT', at: new Date(Date.now() - 60_000) }, { direction: 'IN', at: new Date() }],
      });

      await Promise.all([
        call('campaign.delete', 'DELETE', '/campaign/delete', { campaign_id: campaignId, is_archive: 'no' }),
        call('campaign.update', 'PATCH', '/campaign/update/campaign', { campaign_id: campaignId, daily_limit: 5, email_accounts: [address] }),
        call('campaign.duplicate', 'POST', '/campaign/duplicate', { campaign_id: campaignId, camp_name: 'Copy' }),
        call('campaign.addSubsequence', 'POST', '/campaign/add/subsequence', { parent_camp_id: campaignId, name: 'Follow-up', events: [{ name: 'LEAD_REPLY_ALL' }] }),
        call('campaign.launch', 'POST', '/campaign/launch', { campaign_id: campaignId }),
        call('campaign.bulkAssignTags', 'PUT', '/campaign/bulk-assign-tags', { ids: [campaignId], tag_id: tagId, action: 'ASSIGN' }),
        call('lead.add', 'POST', '/lead/add', { campaign_id: campaignId, leads: Array.from({ length: 20 }, (_, i) => ({ email: `late${round}-${i}@example.com` })) }),
        call('lead.updateStatus', 'POST', '/lead/update/status', { campaign_id: campaignId, email: `lead${round}-1@example.com`, new_status: 'COMPLETED' }),
        call('emailAccount.delete', 'POST', '/account/delete', { email: address }),
        call('emailAccount.bulkAssignTags', 'PUT', '/account/bulk-assign-tags', { ids: [mailbox.id], tag_id: tagId, action: 'ASSIGN' }),
        call('emailAccount.enableWarmup', 'POST', '/account/warmup/enable', { email: address }),
        call('emailAccount.moveWorkspace', 'POST', '/account/move-workspace', { to_workspace_id: other, ids: [mailbox.id] }),
        call('emailAccount.bulkUpdate', 'PUT', '/account/bulk-update', { ids: [mailbox.id], daily_limit: 10 }),
        call('tag.delete', 'DELETE', '/tags/delete', { ids: [tagId] }),
        call('accountAutomation.delete', 'DELETE', '/account/automation/delete', { ids: [ruleId] }),
        call('accountAutomation.update', 'PATCH', '/account/automation/update', { rule_id: ruleId, name: 'Renamed' }),
        call('accountAutomation.status', 'POST', '/account/automation/status', { rule_id: ruleId, status: 'INACTIVE' }),
        call('accountAutomation.duplicate', 'POST', '/account/automation/duplicate', { rule_id: ruleId }),
        call('client.delete', 'DELETE', '/client', { client_id: clientId }),
        call('client.updatePermissions', 'PUT', '/client', { client_id: clientId, client_permissions: [{ workspace_id: ws, permissions: ['TAG_LIST'] }] }),
        call('webhook.delete', 'DELETE', '/hook/del', { ids: [hookId] }),
        call('webhook.test', 'POST', '/hook/test', { id: hookId }),
        call('unibox.deleteThread', 'DELETE', '/unibox/threads/delete', { thread_id: thread.id }),
        call('unibox.deleteEmail', 'DELETE', '/unibox/emails/delete', { message_id: thread.messageIds[1] }),
        call('unibox.markThreadRead', 'POST', `/unibox/threads/${thread.id}/mark-as-read`, {}),
      ]);
    }

    // What each request may answer, whichever of the racing requests came first.
    const allowed: Record<string, (number | string)[]> = {
      'campaign.delete': [200],
      'campaign.update': [200, 'campaign.not_found'],
      'campaign.duplicate': [200, 'campaign.not_found'],
      'campaign.addSubsequence': [200, 'campaign.not_found'],
      'campaign.launch': [200, 'campaign.not_found', 'campaign.not_launchable'],
      'campaign.bulkAssignTags': [200, 'tag.not_found', 'campaign.not_found'],
      'lead.add': [200, 'campaign.not_found'],
      'lead.updateStatus': [200, 'lead.not_found'],
      'emailAccount.delete': [200, 'email_account.not_found'],
      'emailAccount.bulkAssignTags': [200, 'tag.not_found'],
      'emailAccount.enableWarmup': [200, 'email_account.not_found'],
      'emailAccount.moveWorkspace': [200],
      'emailAccount.bulkUpdate': [200],
      'tag.delete': [200],
      'accountAutomation.delete': [200],
      'accountAutomation.update': [200, 'account_automation.rule_not_found'],
      'accountAutomation.status': [200, 'account_automation.rule_not_found'],
      'accountAutomation.duplicate': [200, 'account_automation.rule_not_found'],
      'client.delete': [200],
      'client.updatePermissions': [200, 'client.not_found'],
      'webhook.delete': [200],
      'webhook.test': [200, 'webhook.not_found'],
      'unibox.deleteThread': [200, 'unibox.thread_not_found'],
      'unibox.deleteEmail': [200, 'unibox.email_not_found'],
      'unibox.markThreadRead': [200, 'unibox.thread_not_found'],
    };
    const unexpected = answers.filter((a) => !allowed[a.request]!.includes(a.status === 200 ? 200 : (a.code ?? a.status)));
    expect(unexpected).toEqual([]);
    expect(answers).toHaveLength(ROUNDS * Object.keys(allowed).length);
  }, 120_000);
});
