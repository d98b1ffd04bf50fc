import { operations, type AddLeadsOutput } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';

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
