import { classifyPrismaError, newId } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { conflict, invalid, invalidField } from '../shared/errors';
import { zeroOne } from '../shared/schemas';
import { assertNotClientKey } from '../shared/tenancy';
import { labelKeyFromName, RESERVED_LABEL_KEYS } from './lead-label.rules';
import {
  AddLeadLabelInput,
  DeleteLeadLabelsInput,
  DeleteLeadLabelsOutput,
  LeadLabelItem,
  ListLeadLabelsInput,
  ListLeadLabelsOutput,
} from './lead-label.schemas';

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
      is_system: zeroOne(r.isSystem),
      is_ai_label: zeroOne(r.isAiLabel),
    }));
  },
});

export const addLeadLabel = defineOperation({
  name: 'leadLabel.add',
  kind: 'mutation',
  summary: 'Add a custom lead label',
  description: [
    'Adds a custom label. Its key comes from the name: accents dropped, upper case, each run of other characters one `_`,',
    'no `_` at either end ("Demo scheduled!" → DEMO_SCHEDULED); a label with key X fires webhook event LEAD_MARKED_AS_X.',
    'A name that leaves an empty key is a 400 on `name`. A key equal to an existing label\'s (system or custom),',
    'or the vendor\'s hidden IN_SEQUENCE, is a 409 `label.duplicate`. `icon` defaults to "".',
    'Client-access keys cannot add labels (403).',
  ].join(' '),
  input: AddLeadLabelInput,
  output: LeadLabelItem,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const key = labelKeyFromName(input.name);
    if (!key) throw invalidField('name', 'must contain a letter or a digit');
    const duplicate = () => conflict('label.duplicate', `a lead label with key ${key} already exists in this workspace`);
    if (RESERVED_LABEL_KEYS.includes(key)) throw duplicate();
    const id = newId();
    try {
      const row = await ctx.db.$transaction(async (tx) => {
        const existing = await tx.leadLabel.findUnique({ where: { workspaceId_key: { workspaceId: input.workspace_id, key } }, select: { id: true } });
        if (existing) throw duplicate();
        return tx.leadLabel.create({
          data: { id, workspaceId: input.workspace_id, key, name: input.name, sentiment: input.sentiment, icon: input.icon ?? '' },
          select: { id: true, key: true, name: true, sentiment: true, icon: true },
        });
      });
      return { ...row, is_system: 0 as const, is_ai_label: 0 as const };
    } catch (error) {
      // Two concurrent adds of the same key: the unique index answers for the loser.
      if (classifyPrismaError(error)?.kind === 'conflict') throw duplicate();
      throw error;
    }
  },
});

export const deleteLeadLabels = defineOperation({
  name: 'leadLabel.delete',
  kind: 'mutation',
  summary: 'Delete custom lead labels',
  description: [
    'Deletes custom labels by id and, in the same transaction, clears the label of every lead of the workspace that',
    'carried one of their keys (`label` becomes null). System labels cannot be deleted: naming one is a 400 on `ids.<i>`',
    'and nothing is deleted. Ids not found in the workspace are ignored (not counted in `deleted_count`), so a retried',
    'delete succeeds. Client-access keys cannot delete labels (403).',
  ].join(' '),
  input: DeleteLeadLabelsInput,
  output: DeleteLeadLabelsOutput,
  workspace: 'required',
  async run(ctx, input) {
    assertNotClientKey(ctx.actor);
    const workspaceId = input.workspace_id;
    return ctx.db.$transaction(async (tx) => {
      const found = await tx.leadLabel.findMany({
        where: { workspaceId, id: { in: input.ids } },
        select: { id: true, key: true, isSystem: true },
      });
      const systemIds = new Set(found.filter((l) => l.isSystem).map((l) => l.id));
      const fieldErrors = input.ids.flatMap((id, i) =>
        systemIds.has(id) ? [{ field: `ids.${i}`, message: 'is a system label, which cannot be deleted' }] : [],
      );
      if (fieldErrors.length) {
        throw invalid('label.system_label', fieldErrors.map((f) => `${f.field} ${f.message}`).join('; '), fieldErrors);
      }
      const keys = found.map((l) => l.key);
      if (!keys.length) return { deleted_count: 0 };
      await tx.lead.updateMany({ where: { workspaceId, label: { in: keys } }, data: { label: null } });
      const deleted = await tx.leadLabel.deleteMany({ where: { workspaceId, id: { in: found.map((l) => l.id) }, isSystem: false } });
      return { deleted_count: deleted.count };
    });
  },
});
