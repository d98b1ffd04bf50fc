// The partner's side: what an email-infrastructure provider's key does in the workspaces that
// grant it. Partner keys only (`partner: 'only'`); each call is recorded in partner_activity.
import { defineOperation } from '../shared/operation';
import { recordPartnerActivity } from '../shared/partner-activity';
import { workspaceOperations } from '../workspace/index';
import { addRegularAccounts, emailAccountOperations, normalizeEmail } from '../email-account/index';
import { partnerNameOf } from './partner.rules';
import { PartnerAccountExistsInput, PartnerAccountExistsOutput, PartnerAccountListInput, UploadPartnerAccountsInput } from './partner.schemas';

const PARTNER_ONLY = 'Partner keys only (403 `auth.partner_key_required` for any other key); the call is recorded in the organization\'s partner activity (GET /partner/activity).';

export const partnerWorkspaces = defineOperation({
  name: 'partner.workspaces',
  kind: 'query',
  summary: 'List the workspaces granted to the partner',
  description: `The workspaces that grant the calling partner key, oldest first, as GET /workspaces answers them. ${PARTNER_ONLY}`,
  input: workspaceOperations.list.input,
  output: workspaceOperations.list.output,
  workspace: 'none',
  partner: 'only',
  async run(ctx, input) {
    partnerNameOf(ctx.actor);
    // A partner actor's workspaces are its grants: the workspace list answers exactly those.
    const output = await workspaceOperations.list.run(ctx, input);
    await recordPartnerActivity({ db: ctx.db, actor: ctx.actor, operation: 'partner.workspaces', workspaceId: null });
    return output;
  },
});

export const partnerAccountList = defineOperation({
  name: 'partner.accountList',
  kind: 'query',
  summary: 'List the email accounts of a granted workspace',
  description: `The email accounts of \`workspace_id\`, a workspace that grants the partner key (403 \`auth.workspace_forbidden\` otherwise, as for a workspace of another organization), oldest first, paged with \`skip\` and \`limit\` and in the rows of GET /account/list; never a password or login. ${PARTNER_ONLY}`,
  input: PartnerAccountListInput,
  output: emailAccountOperations.list.output,
  workspace: 'required',
  partner: 'only',
  async run(ctx, input) {
    partnerNameOf(ctx.actor);
    const list = emailAccountOperations.list;
    const output = await list.run(ctx, list.input.parse({ workspace_id: input.workspace_id, skip: input.skip, limit: input.limit }));
    await recordPartnerActivity({ db: ctx.db, actor: ctx.actor, operation: 'partner.accountList', workspaceId: input.workspace_id });
    return output;
  },
});

export const partnerAccountExists = defineOperation({
  name: 'partner.accountExists',
  kind: 'query',
  summary: 'Check whether an address is connected in the organization',
  description: `Whether the mailbox \`email\` (case-insensitive) is connected in any workspace of the organization, whether or not that workspace grants the partner key (\`exists\`), and \`workspace_ids\`: the workspaces granting the key where it is. Nothing more about the others: \`exists: true\` with no workspace id means it is connected where the partner does not see. ${PARTNER_ONLY}`,
  input: PartnerAccountExistsInput,
  output: PartnerAccountExistsOutput,
  workspace: 'none',
  partner: 'only',
  async run(ctx, input) {
    partnerNameOf(ctx.actor);
    const { actor } = ctx;
    const workspaces = await ctx.db.workspace.findMany({ where: { organizationId: actor.organizationId }, select: { id: true } });
    const rows = await ctx.db.emailAccount.findMany({
      where: { workspaceId: { in: workspaces.map((w) => w.id) }, emailNormalized: normalizeEmail(input.email) },
      select: { workspaceId: true },
      orderBy: { workspaceId: 'asc' },
    });
    const granted = new Set(actor.workspaceIds ?? []);
    await recordPartnerActivity({ db: ctx.db, actor, operation: 'partner.accountExists', workspaceId: null });
    return { status: 'success' as const, exists: rows.length > 0, workspace_ids: rows.map((r) => r.workspaceId).filter((id) => granted.has(id)) };
  },
});

export const uploadPartnerAccounts = defineOperation({
  name: 'partner.uploadAccounts',
  kind: 'mutation',
  summary: 'Bulk add SMTP accounts as a partner',
  description: `Adds SMTP/IMAP mailboxes by username and password to \`workspace_id\`, a workspace that grants the partner key (403 otherwise): the body, the checks and the answer of POST /account/bulk-add-regular-accounts (logins verified against the real servers, \`failed\` with the reason, …), plus \`provider_id\`, the partner's own id. Each added mailbox records the partner's name and \`provider_id\`, and one activity row per mailbox is written in the transaction that adds them (one row without a mailbox when none is added). ${PARTNER_ONLY}`,
  input: UploadPartnerAccountsInput,
  output: emailAccountOperations.bulkAdd.output,
  workspace: 'required',
  partner: 'only',
  async run(ctx, input) {
    const name = partnerNameOf(ctx.actor);
    const record = (db: Parameters<typeof recordPartnerActivity>[0]['db'], ids: string[]) =>
      recordPartnerActivity({ db, actor: ctx.actor, operation: 'partner.uploadAccounts', workspaceId: input.workspace_id, emailAccountIds: ids });
    const output = await addRegularAccounts(ctx, input, {
      partner: { name, providerId: input.provider_id },
      inTransaction: (tx, added) => record(tx, added.map((a) => a.id)),
    });
    if (output.added.length === 0) await record(ctx.db, []);
    return output;
  },
});
