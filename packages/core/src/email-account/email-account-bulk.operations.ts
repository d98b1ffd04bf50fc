// Settings of mailboxes: sending limits and signature, warmup (one mailbox by address, or many by id),
// tags, and moving mailboxes to another workspace.
import type { Ctx } from '../shared/context';
import { defineOperation } from '../shared/operation';
import { invalidField, notFound } from '../shared/errors';
import { assertWorkspaceAccess } from '../shared/tenancy';
import {
  AccountByEmailInput,
  BulkAssignTagsInput,
  BulkAssignTagsOutput,
  BulkSetSendingInput,
  BulkSetSendingOutput,
  BulkUpdateAccountsInput,
  BulkUpdateAccountsOutput,
  BulkUpdateWarmupInput,
  BulkUpdateWarmupOutput,
  MoveWorkspaceInput,
  MoveWorkspaceOutput,
  WarmupOutput,
} from './email-account.schemas';
import { findAccountByEmail } from './email-account.queries';
import { warmupSettingsData } from './email-account.rules';

function warmupOperation(options: { name: string; summary: string; to: 'ACTIVE' | 'INACTIVE' }) {
  return defineOperation({
    name: options.name,
    kind: 'mutation',
    summary: options.summary,
    description: `Sets the warmup status of a mailbox, found by address, to ${options.to} (idempotent; 404 when unknown). The warmup worker sends and receives warmup e-mails for ACTIVE mailboxes (docs/api.md, "Warmup"); a mailbox that becomes ACTIVE starts its ramp-up again from the first day.`,
    input: AccountByEmailInput,
    output: WarmupOutput,
    workspace: 'required',
    permission: 'EMAILACCOUNT_EDIT',
    async run(ctx, input) {
      const row = await findAccountByEmail({ db: ctx.db, workspaceId: input.workspace_id, email: input.email });
      await ctx.db.emailAccount.update({
        where: { id: row.id },
        data: { warmupStatus: options.to, ...(options.to === 'ACTIVE' && row.warmupStatus !== 'ACTIVE' ? { warmupStartedAt: ctx.ports.clock.now() } : {}) },
      });
      return { status: 'success' as const, warmup_status: options.to };
    },
  });
}

export const enableWarmup = warmupOperation({ name: 'emailAccount.enableWarmup', summary: 'Enable warmup of an email account', to: 'ACTIVE' });
export const pauseWarmup = warmupOperation({ name: 'emailAccount.pauseWarmup', summary: 'Pause warmup of an email account', to: 'INACTIVE' });

/** The ids among `ids` that are mailboxes of the workspace, in the order given. */
async function ownIds(ctx: Ctx, workspaceId: string, ids: string[]): Promise<string[]> {
  const rows = await ctx.db.emailAccount.findMany({ where: { workspaceId, id: { in: ids } }, select: { id: true } });
  const own = new Set(rows.map((r) => r.id));
  return [...new Set(ids)].filter((id) => own.has(id));
}

export const bulkUpdateAccounts = defineOperation({
  name: 'emailAccount.bulkUpdate',
  kind: 'mutation',
  summary: 'Update sending settings of email accounts',
  description:
    'Sets `daily_limit` (0 to 10000; 0 stops the mailbox sending), `sending_gap` (minutes, 0 to 1440), `signature` and/or the warmup settings (`warmup_limit`, `warmup_increment`, `warmup_reply_rate`, `warmup_custom_words`, `warmup_signature`, `warmup_advanced`; shown as `payload.warmup`, docs/api.md "Warmup") on the given mailboxes; fields left out keep their value, and at least one must be given. Ids that are unknown or of another workspace are ignored; `updated_ids` lists the mailboxes changed.',
  input: BulkUpdateAccountsInput,
  output: BulkUpdateAccountsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const warmup = warmupSettingsData(input);
    if (input.daily_limit === undefined && input.sending_gap === undefined && input.signature === undefined && Object.keys(warmup).length === 0) {
      throw invalidField('daily_limit', 'or sending_gap or signature or a warmup_* setting must be given');
    }
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    await ctx.db.emailAccount.updateMany({
      where: { workspaceId: input.workspace_id, id: { in: ids } },
      data: {
        ...(input.daily_limit !== undefined ? { dailyLimit: input.daily_limit } : {}),
        ...(input.sending_gap !== undefined ? { sendingGap: input.sending_gap } : {}),
        ...(input.signature !== undefined ? { signature: input.signature } : {}),
        ...warmup,
      },
    });
    return { status: 'success' as const, updated_count: ids.length, updated_ids: ids };
  },
});

export const bulkUpdateWarmup = defineOperation({
  name: 'emailAccount.bulkUpdateWarmup',
  kind: 'mutation',
  summary: 'Set the warmup status of email accounts',
  description: 'Sets `warmup_status` (ACTIVE or INACTIVE) on the given mailboxes. Ids that are unknown or of another workspace are ignored; `updated_ids` lists the mailboxes matched.',
  input: BulkUpdateWarmupInput,
  output: BulkUpdateWarmupOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    await ctx.db.$transaction(async (tx) => {
      // Mailboxes that become ACTIVE start their ramp-up from the first day.
      if (input.warmup_status === 'ACTIVE') {
        await tx.emailAccount.updateMany({ where: { workspaceId: input.workspace_id, id: { in: ids }, warmupStatus: { not: 'ACTIVE' } }, data: { warmupStartedAt: ctx.ports.clock.now() } });
      }
      await tx.emailAccount.updateMany({ where: { workspaceId: input.workspace_id, id: { in: ids } }, data: { warmupStatus: input.warmup_status } });
    });
    return { updated_count: ids.length, updated_ids: ids };
  },
});

export const bulkSetSending = defineOperation({
  name: 'emailAccount.bulkSetSending',
  kind: 'mutation',
  summary: 'Pause or resume sending of email accounts',
  description:
    '`status` PAUSED takes the given ACTIVE mailboxes out of their campaigns\' rotation (the scheduler claims ACTIVE mailboxes only) and stops the reply reader on them, as the automation\'s PAUSE_SENDING does; warmup follows `warmup_status`; ACTIVE puts PAUSED mailboxes back, without a login check. A DISCONNECTED mailbox is left as it is: reconnect it (`emailAccount.bulkReconnect`), which checks its logins. Ids that are unknown, of another workspace, or already in the status are ignored; `updated_ids` lists the mailboxes changed.',
  input: BulkSetSendingInput,
  output: BulkSetSendingOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const from = input.status === 'PAUSED' ? ('ACTIVE' as const) : ('PAUSED' as const);
    const ids = await ctx.db.$transaction(async (tx) => {
      const rows = await tx.emailAccount.findMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids }, status: from }, select: { id: true } });
      const changed = rows.map((r) => r.id);
      await tx.emailAccount.updateMany({ where: { workspaceId: input.workspace_id, id: { in: changed }, status: from }, data: { status: input.status } });
      return changed;
    });
    return { updated_count: ids.length, updated_ids: ids };
  },
});

export const bulkAssignTags = defineOperation({
  name: 'emailAccount.bulkAssignTags',
  kind: 'mutation',
  summary: 'Put a tag on, or take it off, email accounts',
  description:
    'ASSIGN puts the tag on the given mailboxes (already tagged ones stay as they are); UNASSIGN takes it off. The tag must belong to the workspace (404 `tag.not_found` otherwise). Ids that are unknown or of another workspace are ignored; `updated_count` counts the mailboxes of the workspace among `ids`.',
  input: BulkAssignTagsInput,
  output: BulkAssignTagsOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    const tag = await ctx.db.tag.findFirst({ where: { id: input.tag_id, workspaceId: input.workspace_id }, select: { id: true } });
    if (!tag) throw notFound('tag.not_found', `tag ${input.tag_id} not found in this workspace`);
    const ids = await ownIds(ctx, input.workspace_id, input.ids);
    if (input.action === 'ASSIGN') {
      await ctx.db.emailAccountTag.createMany({ data: ids.map((emailAccountId) => ({ emailAccountId, tagId: tag.id })), skipDuplicates: true });
    } else {
      await ctx.db.emailAccountTag.deleteMany({ where: { tagId: tag.id, emailAccountId: { in: ids } } });
    }
    return { status: 'success' as const, updated_count: ids.length };
  },
});

export const moveWorkspace = defineOperation({
  name: 'emailAccount.moveWorkspace',
  kind: 'mutation',
  summary: 'Move email accounts to another workspace',
  description:
    'Moves mailboxes from `workspace_id` to `to_workspace_id`, which must be another workspace of the same organization that the key reaches (403 otherwise; a client key needs EMAILACCOUNT_CREATE there). A mailbox whose address is already in the target is skipped. Its campaign links and tags are removed, since they belong to the old workspace; leads and past sends stay where they are. `moved` counts the mailboxes moved.',
  input: MoveWorkspaceInput,
  output: MoveWorkspaceOutput,
  workspace: 'required',
  permission: 'EMAILACCOUNT_EDIT',
  async run(ctx, input) {
    if (input.to_workspace_id === input.workspace_id) throw invalidField('to_workspace_id', 'must differ from workspace_id');
    await assertWorkspaceAccess({ ctx, workspaceId: input.to_workspace_id, permission: 'EMAILACCOUNT_CREATE' });
    const moved = await ctx.db.$transaction(async (tx) => {
      const rows = await tx.emailAccount.findMany({ where: { workspaceId: input.workspace_id, id: { in: input.ids } }, select: { id: true, emailNormalized: true } });
      const inTarget = await tx.emailAccount.findMany({
        where: { workspaceId: input.to_workspace_id, emailNormalized: { in: rows.map((r) => r.emailNormalized) } },
        select: { emailNormalized: true },
      });
      const skip = new Set(inTarget.map((r) => r.emailNormalized));
      const ids = rows.filter((r) => !skip.has(r.emailNormalized)).map((r) => r.id);
      if (ids.length === 0) return 0;
      await tx.campaignEmailAccount.deleteMany({ where: { emailAccountId: { in: ids } } });
      await tx.emailAccountTag.deleteMany({ where: { emailAccountId: { in: ids } } });
      const updated = await tx.emailAccount.updateMany({ where: { id: { in: ids }, workspaceId: input.workspace_id }, data: { workspaceId: input.to_workspace_id } });
      return updated.count;
    });
    return { status: 'success' as const, moved };
  },
});
