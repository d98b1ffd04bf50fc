import { defineOperation } from '../shared/operation';
import { toLeadObject } from './lead.mapper';
import { leadPageIds, leadRows, purgingCampaignIds } from './lead.queries';
import { assertCampaignOfWorkspace } from '../shared/tenancy';
import { hiddenLabelsOf, readLeadPageTrail } from './lead.rules';
import { CountByStatusInput, CountByStatusOutput, GetLeadInput, LEAD_STATUSES, LeadList, WorkspaceLeadsInput } from './lead.schemas';

const LEAD_OBJECT_TEXT =
  'Each lead object carries the vendor\'s fields: `email_acc_name` is the address of the lead\'s sticky mailbox ("" before one is chosen), `total_steps` the steps of its campaign, `sent_step` the highest step sent to it (0 before the first send), `replied_count` / `opened_count` its sends that were replied to / opened, `modified_at` its last change. `network_*_url` are also answered under the vendor\'s `linkedin_*_url` names. Custom variables are extra top-level keys, each under its own name and as `custom_<name>` (the vendor\'s name for it); one named like a built-in field is shown only as `custom_<name>` (the built-in field wins), and a stored variable literally named `custom_<name>` keeps that key. A label hidden from a client key reads null.';

export const getLead = defineOperation({
  name: 'lead.get',
  kind: 'query',
  summary: 'Get or search a lead by address',
  description: [
    'The leads with this address (case-insensitive, exact), one per campaign or subsequence of the workspace it is in, newest first (creation time, then id); `campaign_id` narrows to one campaign. An address in no campaign answers `[]`. A `campaign_id` that is not a campaign of the workspace is 400.',
    LEAD_OBJECT_TEXT,
    'Paging: `skip` / `limit` (default 100).',
  ].join('\n\n'),
  input: GetLeadInput,
  output: LeadList,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    const found = await ctx.db.lead.findMany({
      where: { workspaceId, emailNormalized: input.email.toLowerCase(), ...(input.campaign_id ? { campaignId: input.campaign_id } : {}) },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: input.skip,
      take: input.limit,
      select: { id: true },
    });
    const rows = await leadRows({ db: ctx.db, workspaceId, ids: found.map((l) => l.id) });
    const hiddenLabels = hiddenLabelsOf({ ctx, workspaceId });
    return rows.map((row) => toLeadObject({ row, hiddenLabels }));
  },
});

export const listWorkspaceLeads = defineOperation({
  name: 'lead.workspaceLeads',
  kind: 'query',
  summary: 'List the leads of a workspace',
  description: [
    'Leads of every campaign and subsequence of the workspace, filtered by `campaign_id`, `status`, `label` (a label key; a label hidden from a client key matches nothing), `email` (a case-insensitive prefix of the address) and `lead_id` (one lead, by id; our addition). Sorted by `sort` (`created_at`, the default, `modified_at`, or `_id`: the lead id alone) in `direction` (`desc`, the default, or `asc`), ties broken by id. A `campaign_id` that is not a campaign of the workspace is 400.',
    LEAD_OBJECT_TEXT,
    'Paging: `page` (from 1) and `limit` (1 to 1,000, default 100; a larger limit is read as 1,000), answering a bare array as the vendor does; an empty array (or one shorter than `limit`) is the end. Pages are cut from the key columns alone, so with no filter other than the workspace a page is an index-only walk of (workspace_id, created_at, id), or (workspace_id, id) with `sort=_id`, that skips `(page-1)*limit` index entries without reading a row, and only the page\'s own leads are then read in full.',
    'Keyset paging, for deep pages at a constant cost: `page_trail` continues right after a given lead, replacing `page`. It is the base64url of the JSON array `[sort, direction, value, _id]` where value is the `created_at` (or `modified_at`, or `_id`, with that sort) and `_id` of the last lead of the previous page, e.g. `["created_at","desc","2026-05-01T10:00:00.000Z","66b447598f6dd99f7f7b5c0a"]`: a client builds it from the bare array it received. A trail built for another sort or direction is 400.',
  ].join('\n\n'),
  input: WorkspaceLeadsInput,
  output: LeadList,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    const hiddenLabels = hiddenLabelsOf({ ctx, workspaceId });
    const after = input.page_trail ? readLeadPageTrail({ trail: input.page_trail, sort: input.sort, direction: input.direction }) : null;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    if (input.label && hiddenLabels.includes(input.label)) return [];
    const page = await leadPageIds({
      db: ctx.db,
      workspaceId,
      filters: { campaignId: input.campaign_id, status: input.status, label: input.label, emailPrefix: input.email, id: input.lead_id },
      sort: input.sort,
      direction: input.direction,
      after,
      offset: after ? 0 : (input.page - 1) * input.limit,
      limit: input.limit,
    });
    const rows = await leadRows({ db: ctx.db, workspaceId, ids: page.map((p) => p.id) });
    return rows.map((row) => toLeadObject({ row, hiddenLabels }));
  },
});

export const countLeadsByStatus = defineOperation({
  name: 'lead.countByStatus',
  kind: 'query',
  summary: 'Count leads by status',
  description:
    'Leads of the workspace (or of one campaign with `campaign_id`) per status, for all 8 statuses in a fixed order (NOT_CONTACTED, CONTACTED, COMPLETED, REPLIED, RESCHEDULED, UNSUBSCRIBED, BOUNCED, SKIPPED), zeros included. A `campaign_id` that is not a campaign of the workspace is 400.',
  input: CountByStatusInput,
  output: CountByStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await assertCampaignOfWorkspace({ db: ctx.db, workspaceId, campaignId: input.campaign_id });
    const purging = input.campaign_id ? [] : await purgingCampaignIds({ db: ctx.db, workspaceId });
    const groups = await ctx.db.lead.groupBy({
      by: ['status'],
      where: { workspaceId, ...(input.campaign_id ? { campaignId: input.campaign_id } : purging.length ? { campaignId: { notIn: purging } } : {}) },
      _count: { _all: true },
    });
    const counts = new Map(groups.map((g) => [g.status as string, g._count._all]));
    return LEAD_STATUSES.map((status) => ({ status, count: counts.get(status) ?? 0 }));
  },
});
