// Email-account automation rules through REST, tRPC and GraphQL: every operation on each
// transport, and a 400 naming the field on each.
import { beforeAll, describe, expect, it } from 'vitest';
import { runAutomationRound } from '@outreach/core';
import { createTestMailbox } from '@outreach/core/testing';
import { trpcFailure } from './testing/test-server';
import { useTestServer } from './testing/suite';

const { server, org, foreign } = useTestServer();
let ws: string;
let mailbox: string;
let tagId: string;

beforeAll(async () => {
  ws = org.workspaceId;
  mailbox = (await createTestMailbox({ db: server.db.prisma, organizationId: org.organizationId, workspaceId: ws, email: 'rules@sender.test' })).id;
  const tag = await server.rest('POST', '/tags/create', { key: org.apiKey, body: { workspace_id: ws, name: 'Watched', color: '#336699' } });
  tagId = tag.body.tag_id;
});

const RULE = { name: 'Pause on bounces', metric: 'bounce_rate', operator: 'GT', threshold: 5, window_days: 7, actions: [{ type: 'PAUSE_SENDING' }, { type: 'NOTIFY' }] };

describe('automation rules over REST', () => {
  it('creates, lists, gets, updates, enables, duplicates and deletes under /account/automation', async () => {
    const created = await server.rest('POST', '/account/automation/create', { key: org.apiKey, body: { workspace_id: ws, ...RULE, tag_ids: [tagId] } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ status: 'success', rule: { name: 'Pause on bounces', scope: 'TAGS', tag_ids: [tagId], status: 'ACTIVE', cooldown_minutes: 1440 } });
    const id: string = created.body.rule._id;

    const listed = await server.rest('GET', '/account/automation/list', { key: org.apiKey, query: { workspace_id: ws, skip: '0', limit: '10' } });
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([created.body.rule]);

    const updated = await server.rest('PATCH', '/account/automation/update', { key: org.apiKey, body: { workspace_id: ws, rule_id: id, email_account_ids: [mailbox], threshold: '7.5' } });
    expect(updated.body.rule).toMatchObject({ scope: 'ACCOUNTS', email_account_ids: [mailbox], tag_ids: [], threshold: 7.5 });

    const disabled = await server.rest('POST', '/account/automation/status', { key: org.apiKey, body: { workspace_id: ws, rule_id: id, status: 'INACTIVE' } });
    expect(disabled.body.rule.status).toBe('INACTIVE');
    const copy = await server.rest('POST', '/account/automation/duplicate', { key: org.apiKey, body: { workspace_id: ws, rule_id: id, name: 'Copy' } });
    expect(copy.body.rule).toMatchObject({ name: 'Copy', status: 'INACTIVE', scope: 'ACCOUNTS', threshold: 7.5 });

    const got = await server.rest('GET', '/account/automation/get', { key: org.apiKey, query: { workspace_id: ws, rule_id: id } });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ _id: id, name: 'Pause on bounces', last_evaluation: [], firings: [] });

    const deleted = await server.rest('DELETE', '/account/automation/delete', { key: org.apiKey, body: { workspace_id: ws, ids: [id, copy.body.rule._id] } });
    expect(deleted.body).toEqual({ status: 'success', deleted_count: 2 });
    const gone = await server.rest('GET', '/account/automation/get', { key: org.apiKey, query: { workspace_id: ws, rule_id: id } });
    expect([gone.status, gone.body.code]).toEqual([404, 'account_automation.rule_not_found']);
  });

  it('answers 400 naming the field, and 403 for another organization’s workspace', async () => {
    const unknown = await server.rest('POST', '/account/automation/create', { key: org.apiKey, body: { workspace_id: ws, ...RULE, metric: 'open_rate' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ status: 'error', code: 'request.invalid', errors: [{ field: 'metric', message: expect.stringContaining('bounce_rate') }] });
    const action = await server.rest('POST', '/account/automation/create', { key: org.apiKey, body: { workspace_id: ws, ...RULE, actions: [{ type: 'REBOOT' }] } });
    expect([action.status, action.body.errors[0].field]).toEqual([400, 'actions.0.type']);
    const theirTag = await server.rest('POST', '/tags/create', { key: foreign.apiKey, body: { workspace_id: foreign.workspaceId, name: 'Theirs', color: '#000000' } });
    const scoped = await server.rest('POST', '/account/automation/create', { key: org.apiKey, body: { workspace_id: ws, ...RULE, tag_ids: [theirTag.body.tag_id] } });
    expect([scoped.status, scoped.body.errors]).toEqual([400, [{ field: 'tag_ids.0', message: `${theirTag.body.tag_id} is not a tag of this workspace` }]]);
    const foreignWs = await server.rest('GET', '/account/automation/list', { key: org.apiKey, query: { workspace_id: foreign.workspaceId } });
    expect(foreignWs.status).toBe(403);
    expect(await server.db.prisma.accountAutomationRule.count({ where: { workspaceId: ws } })).toBe(0);
  });
});

describe('automation rules over tRPC', () => {
  it('runs every operation as accountAutomation.<op>, and refuses a threshold out of range with BAD_REQUEST', async () => {
    const client = server.trpc(org.apiKey);
    const { rule } = await client.accountAutomation.create.mutate({ workspace_id: ws, ...RULE, metric: 'warmup_spam_rate', operator: 'GT', threshold: 10, actions: [{ type: 'PAUSE_WARMUP' }] });
    expect(await client.accountAutomation.list.query({ workspace_id: ws })).toEqual([rule]);
    expect((await client.accountAutomation.update.mutate({ workspace_id: ws, rule_id: rule._id, window_days: 14 })).rule.window_days).toBe(14);

    // The worker evaluates it: the mailbox placed no warmup e-mail in the window, so the evaluation says no data.
    await runAutomationRound({ deps: server.deps.service, periodMs: 60_000, batch: 10, workspaceIds: [ws] });
    const got = await client.accountAutomation.get.query({ workspace_id: ws, rule_id: rule._id });
    expect(got.last_evaluation).toEqual([expect.objectContaining({ email_account_id: mailbox, value: null, outcome: 'NO_DATA' })]);
    expect(got.firings).toEqual([]);

    expect((await client.accountAutomation.status.mutate({ workspace_id: ws, rule_id: rule._id, status: 'INACTIVE' })).rule.status).toBe('INACTIVE');
    const copy = await client.accountAutomation.duplicate.mutate({ workspace_id: ws, rule_id: rule._id });
    expect(copy.rule.name).toBe('Pause on bounces (copy)');
    expect(await client.accountAutomation.delete.mutate({ workspace_id: ws, ids: [rule._id, copy.rule._id] })).toEqual({ status: 'success', deleted_count: 2 });

    const refused = await trpcFailure(() => client.accountAutomation.create.mutate({ workspace_id: ws, ...RULE, threshold: 150 }));
    expect(refused).toEqual({ status: 400, code: 'BAD_REQUEST', field: 'threshold' });
    const window = await trpcFailure(() => client.accountAutomation.create.mutate({ workspace_id: ws, ...RULE, window_days: 120 }));
    expect(window).toEqual({ status: 400, code: 'BAD_REQUEST', field: 'window_days' });
  });
});

describe('automation rules over GraphQL', () => {
  const fields = 'id name status scope tagIds emailAccountIds metric operator threshold windowDays cooldownMinutes actions { type value tagId }';

  it('lists and reads rules on Workspace and writes them with mutations that answer the rule', async () => {
    const created = await server.graphql(
      `mutation($ws: ID!, $tag: ID!) {
        createAccountAutomationRule(workspaceId: $ws, name: "Slow down", metric: daily_sent, operator: GTE, threshold: 40, windowDays: 1,
          actions: [{ type: SET_DAILY_LIMIT, value: 20 }, { type: ADD_TAG, tagId: $tag }], cooldownMinutes: 60) { ${fields} }
      }`,
      { key: org.apiKey, variables: { ws, tag: tagId } },
    );
    expect(created.body.errors).toBeUndefined();
    const rule = created.body.data.createAccountAutomationRule;
    expect(rule).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'Slow down',
      status: 'ACTIVE',
      scope: 'ALL',
      tagIds: [],
      emailAccountIds: [],
      metric: 'daily_sent',
      operator: 'GTE',
      threshold: 40,
      windowDays: 1,
      cooldownMinutes: 60,
      actions: [
        { type: 'SET_DAILY_LIMIT', value: 20, tagId: null },
        { type: 'ADD_TAG', value: null, tagId },
      ],
    });

    const mutations = await server.graphql(
      `mutation($ws: ID!, $id: ID!) {
        updated: updateAccountAutomationRule(workspaceId: $ws, ruleId: $id, name: "Slower") { name }
        disabled: setAccountAutomationRuleStatus(workspaceId: $ws, ruleId: $id, status: INACTIVE) { status }
        copy: duplicateAccountAutomationRule(workspaceId: $ws, ruleId: $id, name: "Copy") { id name status }
      }`,
      { key: org.apiKey, variables: { ws, id: rule.id } },
    );
    expect(mutations.body.errors).toBeUndefined();
    expect(mutations.body.data.updated).toEqual({ name: 'Slower' });
    expect(mutations.body.data.disabled).toEqual({ status: 'INACTIVE' });
    expect(mutations.body.data.copy).toMatchObject({ name: 'Copy', status: 'INACTIVE' });

    const read = await server.graphql(
      `query($ws: ID!, $id: ID!) {
        workspace(id: $ws) {
          accountAutomationRules { name }
          accountAutomationRule(ruleId: $id) { name lastEvaluatedAt lastEvaluation { emailAccountId value outcome } firings { id value actions { type result detail } } }
        }
        node(workspaceId: $ws, id: $id) { ... on AccountAutomationRule { name } }
      }`,
      { key: org.apiKey, variables: { ws, id: rule.id } },
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data.workspace.accountAutomationRules).toEqual([{ name: 'Slower' }, { name: 'Copy' }]);
    expect(read.body.data.workspace.accountAutomationRule).toEqual({ name: 'Slower', lastEvaluatedAt: null, lastEvaluation: [], firings: [] });
    expect(read.body.data.node).toEqual({ name: 'Slower' });

    const deleted = await server.graphql(`mutation($ws: ID!, $ids: [ID!]!) { deleteAccountAutomationRules(workspaceId: $ws, ids: $ids) }`, {
      key: org.apiKey,
      variables: { ws, ids: [rule.id, mutations.body.data.copy.id] },
    });
    expect(deleted.body).toEqual({ data: { deleteAccountAutomationRules: 2 } });
  });

  it('answers BAD_USER_INPUT naming the field', async () => {
    const refused = await server.graphql(
      `mutation($ws: ID!, $box: ID!) {
        createAccountAutomationRule(workspaceId: $ws, name: "Bad", metric: bounce_rate, operator: GT, threshold: 5, windowDays: 0,
          emailAccountIds: [$box], actions: [{ type: NOTIFY }]) { id }
      }`,
      { key: org.apiKey, variables: { ws, box: mailbox } },
    );
    expect(refused.body.data?.createAccountAutomationRule ?? null).toBeNull();
    expect(refused.body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', errors: [{ field: 'window_days' }] });
    const missing = await server.graphql(`query($ws: ID!) { workspace(id: $ws) { accountAutomationRule(ruleId: "ffffffffffffffffffffffff") { id } } }`, { key: org.apiKey, variables: { ws } });
    expect(missing.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', domain_code: 'account_automation.rule_not_found' });
  });
});
