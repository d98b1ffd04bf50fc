import { checkActorScope, operations, type AddLeadsOutput, type Ctx } from '@outreach/core';
import { builder } from './builder';
import { guard, inOrderOf, runOperation } from './run';
import { WorkspaceType } from './workspace.graphql';

const LeadInput = builder.inputType('LeadInput', {
  fields: (t) => ({
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
    notes: t.string(),
    addressLine: t.string(),
    city: t.string(),
    state: t.string(),
    country: t.string(),
    countryCode: t.string(),
    phoneNumber: t.string(),
    companyName: t.string(),
    companyWebsite: t.string(),
    jobTitle: t.string(),
    networkPersonUrl: t.string(),
    networkCompanyUrl: t.string(),
    customVariables: t.field({ type: 'JSON', description: 'Object of variable name to string value' }),
  }),
});

const LEAD_FIELDS = {
  firstName: 'first_name',
  lastName: 'last_name',
  notes: 'notes',
  addressLine: 'address_line',
  city: 'city',
  state: 'state',
  country: 'country',
  countryCode: 'country_code',
  phoneNumber: 'phone_number',
  companyName: 'company_name',
  companyWebsite: 'company_website',
  jobTitle: 'job_title',
  networkPersonUrl: 'network_person_url',
  networkCompanyUrl: 'network_company_url',
  customVariables: 'custom_variables',
} as const;

const LeadUploadResult = builder.objectRef<AddLeadsOutput>('LeadUploadResult').implement({
  fields: (t) => ({
    totalSent: t.exposeInt('total_sent'),
    leadsUploaded: t.exposeInt('leads_uploaded'),
    duplicateEmailCount: t.exposeInt('duplicate_email_count'),
    alreadyInCampaign: t.exposeInt('already_in_campaign'),
    invalidEmailCount: t.exposeInt('invalid_email_count'),
    skipped: t.exposeInt('skipped'),
    remainingInPlan: t.exposeInt('remaining_in_plan'),
    overflowedLeadCount: t.exposeInt('overflowed_lead_count'),
  }),
});

builder.mutationField('addLeads', (t) =>
  t.field({
    type: LeadUploadResult,
    description: 'Adds up to 10,000 leads to a campaign (same rules and counts as POST /lead/add)',
    args: {
      workspaceId: t.arg.id({ required: true }),
      campaignId: t.arg.id({ required: true }),
      leads: t.arg({ type: [LeadInput], required: true }),
      skipIfInWorkspace: t.arg.boolean(),
      skipLeadInActivePauseCamp: t.arg.boolean(),
      skipLeadForActiveOnlyCamp: t.arg.boolean(),
      resumeCampIfCompleted: t.arg.boolean(),
      crmSync: t.arg.boolean(),
      isOverwrite: t.arg.boolean(),
    },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.lead.add,
        ctx,
        input: {
          workspace_id: String(args.workspaceId),
          campaign_id: String(args.campaignId),
          leads: args.leads.map((lead) => {
            const out: Record<string, unknown> = { email: lead.email };
            for (const [from, to] of Object.entries(LEAD_FIELDS)) {
              const value = lead[from as keyof typeof LEAD_FIELDS];
              if (value != null) out[to] = value;
            }
            return out;
          }),
          skip_if_in_workspace: args.skipIfInWorkspace ?? false,
          skip_lead_in_active_pause_camp: args.skipLeadInActivePauseCamp ?? false,
          skip_lead_for_active_only_camp: args.skipLeadForActiveOnlyCamp ?? false,
          resume_camp_if_completed: args.resumeCampIfCompleted ?? false,
          crm_sync: args.crmSync ?? false,
          is_overwrite: args.isOverwrite ?? false,
        },
      }),
  }),
);

const LeadStatus = builder.enumType('LeadStatus', {
  values: ['NOT_CONTACTED', 'CONTACTED', 'COMPLETED', 'REPLIED', 'RESCHEDULED', 'UNSUBSCRIBED', 'BOUNCED', 'SKIPPED'] as const,
});

const hiddenLabels = (ctx: Ctx, workspaceId: string) => ctx.actor.clientGrants?.[workspaceId]?.hideLabels ?? [];

builder.prismaObject('Lead', {
  description: 'A lead of a campaign or subsequence (one per campaign an address is in)',
  fields: (t) => ({
    id: t.exposeID('id'),
    workspaceId: t.exposeID('workspaceId'),
    campaignId: t.exposeID('campaignId'),
    email: t.exposeString('email'),
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    notes: t.exposeString('notes', { nullable: true }),
    addressLine: t.exposeString('addressLine', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
    state: t.exposeString('state', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    countryCode: t.exposeString('countryCode', { nullable: true }),
    phoneNumber: t.exposeString('phoneNumber', { nullable: true }),
    companyName: t.exposeString('companyName', { nullable: true }),
    companyWebsite: t.exposeString('companyWebsite', { nullable: true }),
    jobTitle: t.exposeString('jobTitle', { nullable: true }),
    networkPersonUrl: t.exposeString('networkPersonUrl', { nullable: true }),
    networkCompanyUrl: t.exposeString('networkCompanyUrl', { nullable: true }),
    customVariables: t.expose('customVariables', { type: 'JSON' }),
    status: t.expose('status', { type: LeadStatus }),
    label: t.string({
      nullable: true,
      description: 'Label key; null when unlabelled or when the label is hidden from this client key',
      resolve: (lead, _args, { ctx }) => (lead.label !== null && hiddenLabels(ctx, lead.workspaceId).includes(lead.label) ? null : lead.label),
    }),
    currentStep: t.exposeInt('currentStep'),
    isCompleted: t.exposeBoolean('isCompleted'),
    emailAccountId: t.exposeID('emailAccountId', { nullable: true }),
    lastSentAt: t.expose('lastSentAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    campaign: t.relation('campaign'),
  }),
});

builder.prismaObjectField(WorkspaceType, 'leads', (t) =>
  t.prismaConnection({
    type: 'Lead',
    cursor: 'id',
    maxSize: 100,
    description:
      'Leads of the workspace, newest first (creation time, then id), paged by cursor (Prisma keyset on the lead id); filters as GET /lead/workspace-leads, a label hidden from a client key matches nothing',
    args: {
      campaignId: t.arg.id(),
      status: t.arg({ type: LeadStatus }),
      label: t.arg.string(),
      emailPrefix: t.arg.string({ description: 'Case-insensitive address prefix' }),
    },
    resolve: (query, workspace, args, { ctx }) =>
      guard(ctx, async () => {
        // The workspace field checked the key reaches the workspace; a client key also needs CAMPAIGN_LIST.
        checkActorScope({ actor: ctx.actor, workspaceId: workspace.id, permission: 'CAMPAIGN_LIST' });
        if (args.label && hiddenLabels(ctx, workspace.id).includes(args.label)) return [];
        return ctx.db.lead.findMany({
          ...query,
          where: {
            workspaceId: workspace.id,
            ...(args.campaignId ? { campaignId: String(args.campaignId) } : {}),
            ...(args.status ? { status: args.status } : {}),
            ...(args.label ? { label: args.label } : {}),
            ...(args.emailPrefix ? { emailNormalized: { startsWith: args.emailPrefix.trim().toLowerCase() } } : {}),
          },
          orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        });
      }),
  }),
);

builder.queryField('leadsByEmail', (t) =>
  t.prismaField({
    type: ['Lead'],
    description: 'The leads with this address, one per campaign it is in, newest first (as GET /lead/get)',
    args: { workspaceId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), campaignId: t.arg.id() },
    resolve: async (query, _root, args, { ctx }) => {
      const found = await runOperation({
        op: operations.lead.get,
        ctx,
        input: { workspace_id: String(args.workspaceId), email: args.email, ...(args.campaignId ? { campaign_id: String(args.campaignId) } : {}) },
      });
      const ids = found.map((l) => l._id);
      return guard(ctx, async () => inOrderOf(await ctx.db.lead.findMany({ ...query, where: { id: { in: ids }, workspaceId: String(args.workspaceId) } }), ids));
    },
  }),
);

const LeadChangeResult = builder.objectRef<{ count: number }>('LeadChangeResult').implement({
  fields: (t) => ({ count: t.exposeInt('count', { description: 'Lead rows changed' }) }),
});

const SubsequenceEnrolResult = builder.objectRef<{ inserted: number; overflowed: number }>('SubsequenceEnrolResult').implement({
  fields: (t) => ({ inserted: t.exposeInt('inserted'), overflowed: t.exposeInt('overflowed') }),
});

builder.mutationField('updateLeadData', (t) =>
  t.field({
    type: LeadChangeResult,
    description: 'Sets lead fields / custom variables and the label of an address (as POST /lead/data/update); count = leads updated',
    args: {
      workspaceId: t.arg.id({ required: true }),
      email: t.arg.string({ required: true }),
      campaignId: t.arg.id(),
      variables: t.arg({ type: 'JSON', description: 'Object of field or variable name to string value' }),
      label: t.arg.string({ description: 'A label key; null or "" clears it (omit to leave it)' }),
    },
    resolve: async (_root, args, { ctx }) => {
      const r = await runOperation({
        op: operations.lead.updateData,
        ctx,
        input: {
          workspace_id: String(args.workspaceId),
          email: args.email,
          ...(args.campaignId ? { campaign_id: String(args.campaignId) } : {}),
          ...(args.variables !== undefined && args.variables !== null ? { variables: args.variables } : {}),
          ...(args.label !== undefined ? { label: args.label } : {}),
        },
      });
      return { count: r.updated };
    },
  }),
);

builder.mutationField('completeLead', (t) =>
  t.boolean({
    description: 'Marks the lead of an address in a campaign as completed (as POST /lead/update/status)',
    args: { workspaceId: t.arg.id({ required: true }), campaignId: t.arg.id({ required: true }), email: t.arg.string({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      await runOperation({
        op: operations.lead.updateStatus,
        ctx,
        input: { workspace_id: String(args.workspaceId), campaign_id: String(args.campaignId), email: args.email, new_status: 'COMPLETED' },
      });
      return true;
    },
  }),
);

builder.mutationField('deleteLeads', (t) =>
  t.field({
    type: LeadChangeResult,
    description: 'Deletes addresses from a campaign, or from every campaign of the workspace (as POST /lead/delete); count = leads deleted',
    args: { workspaceId: t.arg.id({ required: true }), campaignId: t.arg.id(), emails: t.arg.stringList({ required: true }) },
    resolve: async (_root, args, { ctx }) => {
      const r = await runOperation({
        op: operations.lead.delete,
        ctx,
        input: { workspace_id: String(args.workspaceId), delete_list: args.emails, ...(args.campaignId ? { campaign_id: String(args.campaignId) } : {}) },
      });
      return { count: r.deleted };
    },
  }),
);

builder.mutationField('addLeadsToSubsequence', (t) =>
  t.field({
    type: SubsequenceEnrolResult,
    description: 'Copies leads of the parent campaign into a subsequence (as POST /lead/add-lead-in-subseq)',
    args: { workspaceId: t.arg.id({ required: true }), subsequenceId: t.arg.id({ required: true }), parentLeadIds: t.arg.idList({ required: true }) },
    resolve: (_root, args, { ctx }) =>
      runOperation({
        op: operations.lead.addToSubsequence,
        ctx,
        input: { workspace_id: String(args.workspaceId), subseq_id: String(args.subsequenceId), parent_lead_ids: args.parentLeadIds.map(String) },
      }),
  }),
);
