import { newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { invalid, invalidField } from '../shared/errors';
import { assertWorkspaceAccess } from '../shared/tenancy';
import {
  CreateSubsequenceInput,
  CreateSubsequenceOutput,
  LABEL_PREFIX,
  splitPhrases,
  type SubsequenceEventName,
} from './subsequence.schemas';

export const createSubsequence = defineOperation({
  name: 'campaign.addSubsequence',
  kind: 'mutation',
  summary: 'Create a subsequence',
  description: [
    'Creates a subsequence (a child campaign fed by trigger events) under a parent campaign, as a draft.',
    '`workspace_id` is optional: when omitted it is the parent campaign\'s workspace, which must be reachable with the key. The parent must be a parent campaign, not a subsequence.',
    'Events: `LEAD_LABEL_UPDATED` needs a non-empty `val` whose entries are `LEAD_MARKED_AS_<label key>` naming a lead label of the workspace; `LEAD_REPLY_CONTENT` needs `include_text` (comma-separated phrases; a reply matching any phrase and none of the optional `exclude_text` phrases triggers, case-insensitively); `LEAD_REPLY_ALL` and `LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY` take only `name`. Each violation is a 400 naming the event index and field (`events.1.val.0`).',
    'The subsequence starts with the parent\'s sending settings (daily limit, interval, text/HTML, tracking, unsubscribe link, stop on reply, schedule, mailboxes); its own sequence is set with the campaign update operation.',
  ].join('\n\n'),
  input: CreateSubsequenceInput,
  output: CreateSubsequenceOutput,
  workspace: 'optional',
  permission: 'CAMPAIGN_CREATE',
  async run(ctx, input) {
    const parent = await ctx.db.campaign.findFirst({
      where: {
        id: input.parent_camp_id,
        organizationId: ctx.actor.organizationId,
        ...(input.workspace_id ? { workspaceId: input.workspace_id } : {}),
      },
      include: { emailAccounts: { select: { emailAccountId: true } } },
    });
    if (!parent) {
      throw invalidField('parent_camp_id', input.workspace_id ? `is not a campaign of workspace ${input.workspace_id}` : 'is not a campaign of this organization', 'campaign.not_found');
    }
    if (!input.workspace_id) await assertWorkspaceAccess({ ctx, workspaceId: parent.workspaceId, permission: 'CAMPAIGN_CREATE' });
    if (parent.type !== 'parent') throw invalidField('parent_camp_id', 'is a subsequence; a subsequence needs a parent campaign', 'campaign.not_a_parent');
    const workspaceId = parent.workspaceId;

    const wantedKeys = [...new Set(input.events.flatMap((e) => e.val ?? []).map((v) => v.slice(LABEL_PREFIX.length)))];
    if (wantedKeys.length) {
      const known = new Set(
        (await ctx.db.leadLabel.findMany({ where: { workspaceId, key: { in: wantedKeys } }, select: { key: true } })).map((l) => l.key),
      );
      const fieldErrors = input.events.flatMap((e, i) =>
        (e.val ?? [])
          .map((v, j) => ({ v, j }))
          .filter(({ v }) => !known.has(v.slice(LABEL_PREFIX.length)))
          .map(({ v, j }) => ({ field: `events.${i}.val.${j}`, message: `names no lead label of this workspace (${v})` })),
      );
      if (fieldErrors.length) throw invalid('campaign.unknown_label', fieldErrors.map((f) => `${f.field} ${f.message}`).join('; '), fieldErrors);
    }

    const id = newId();
    await ctx.db.$transaction(async (tx) => {
      await tx.campaign.create({
        data: {
          id,
          organizationId: parent.organizationId,
          workspaceId,
          parentId: parent.id,
          type: 'subseq',
          status: 'DRAFT',
          name: input.name,
          dailyLimit: parent.dailyLimit,
          dailyLimitNewLead: parent.dailyLimitNewLead,
          intervalLimitInMin: parent.intervalLimitInMin,
          sendAsText: parent.sendAsText,
          openTracking: parent.openTracking,
          unsubscribeLink: parent.unsubscribeLink,
          stopOnLeadReplied: parent.stopOnLeadReplied,
          schedule: parent.schedule ?? undefined,
          emailAccounts: { createMany: { data: parent.emailAccounts.map((a) => ({ emailAccountId: a.emailAccountId })) } },
        },
      });
      await tx.subsequenceTrigger.createMany({
        data: input.events.map((event, position) => ({
          id: newId(),
          workspaceId,
          subsequenceId: id,
          parentCampaignId: parent.id,
          position,
          event: event.name as SubsequenceEventName,
          labels: (event.val ?? []).map((v) => v.slice(LABEL_PREFIX.length)),
          includeText: splitPhrases(event.include_text),
          excludeText: splitPhrases(event.exclude_text),
        })),
      });
    });
    return { status: 'success' as const, id };
  },
});
