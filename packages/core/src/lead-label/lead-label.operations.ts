import { defineOperation } from '../shared/operation';
import { ListLeadLabelsInput, ListLeadLabelsOutput } from './lead-label.schemas';

export const listLeadLabels = defineOperation({
  name: 'leadLabel.list',
  kind: 'query',
  summary: 'List lead labels',
  description:
    'The workspace\'s lead labels: the eight system labels (INTERESTED, NOT_INTERESTED, OUT_OF_OFFICE, AUTOMATIC_REPLY, MEETING_BOOKED, MEETING_COMPLETED, WRONG_PERSON, CLOSED), then custom ones, oldest first. Labels hidden from a client key are left out.',
  input: ListLeadLabelsInput,
  output: ListLeadLabelsOutput,
  workspace: 'required',
  async run(ctx, input) {
    const hidden = ctx.actor.clientGrants?.[input.workspace_id]?.hideLabels ?? [];
    const rows = await ctx.db.leadLabel.findMany({
      where: { workspaceId: input.workspace_id, ...(hidden.length ? { key: { notIn: hidden } } : {}) },
      orderBy: [{ isSystem: 'desc' }, { createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, key: true, name: true, sentiment: true, icon: true, isSystem: true, isAiLabel: true },
    });
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      name: r.name,
      sentiment: r.sentiment,
      icon: r.icon,
      is_system: r.isSystem,
      is_ai_label: r.isAiLabel,
    }));
  },
});
