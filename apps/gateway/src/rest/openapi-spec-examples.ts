// Hand-written examples of the seven operations the interface specification gives in full
// (../shared/spec/interface-spec.md), keyed by operation name. Every other operation's
// examples are generated (openapi-examples.ts). The test suite parses each request with the
// operation's input schema and each response with its output schema.
import type { Json } from './openapi-examples';

const WORKSPACE = '6651f0c2a4b7e91d3c5a8f20';
const ORGANIZATION = '6650a9e3c7b1d4f25e8a0b19';
const CAMPAIGN = '6652a1d4e8f3b2c7a9d05e11';
const SUBSEQUENCE = '6652a1d4e8f3b2c7a9d05e2f';
const LEAD = '6653b7e2c1d9a4f08b6e3d42';

export const SPEC_EXAMPLES: Record<string, { request: Record<string, Json>; response: Json }> = {
  'campaign.variationStats': {
    request: { workspace_id: WORKSPACE, campaign_id: CAMPAIGN, start_date: '2026-03-01', end_date: '2026-03-31' },
    response: [
      {
        step: 1,
        variations: [
          { variation: 'A', sent: 412, open: 187, reply: 23, pos_reply: 9, name: 'Short intro', is_active: true, is_del: false },
          { variation: 'B', sent: 405, open: 161, reply: 17, pos_reply: 5, name: '-', is_active: true, is_del: false },
          { variation: 'C', sent: 96, open: 30, reply: 2, pos_reply: 0, name: 'Case study first', is_active: false, is_del: true },
        ],
      },
      {
        step: 2,
        variations: [{ variation: 'A', sent: 318, open: 122, reply: 14, pos_reply: 6, name: 'Gentle bump', is_active: true, is_del: false }],
      },
    ],
  },

  'unibox.campaignEmails': {
    request: { workspace_id: WORKSPACE, lead: 'jane.cooper@northwind-robotics.com' },
    response: {
      page_trail: '',
      data: [
        {
          id: '6658a3c1e2f4b7d90a1c6e01',
          organization_id: ORGANIZATION,
          workspace_id: WORKSPACE,
          lead_id: '6653b7e2c1d9a4f08b6e3d55',
          lead: 'jane.cooper@northwind-robotics.com',
          eaccount: 'alex@outreach-acme.com',
          campaign_id: SUBSEQUENCE,
          parent_camp_id: CAMPAIGN,
          current_step: 1,
          variation: 'A',
          sent_on: '2026-03-09T14:02:11.384Z',
          message_id: '<d41f7a0c-1e5b-4c2f-9a7d-3b8e6f2c1a90@outreach-acme.com>',
          subject: 'Re: Quick question about Northwind Robotics',
          body: '<p>Hi Jane, here is the case study I mentioned: 38% fewer truck rolls in six months.</p>',
          is_text: 0,
        },
        {
          id: '6658a3c1e2f4b7d90a1c6d77',
          organization_id: ORGANIZATION,
          workspace_id: WORKSPACE,
          lead_id: LEAD,
          lead: 'jane.cooper@northwind-robotics.com',
          eaccount: 'alex@outreach-acme.com',
          campaign_id: CAMPAIGN,
          parent_camp_id: '',
          current_step: 1,
          variation: 'B',
          sent_on: '2026-03-02T09:15:00.000Z',
          message_id: '<7c2e9b14-5f3a-4d8e-b1c6-0a9f2e7d4b38@outreach-acme.com>',
          subject: 'Quick question about Northwind Robotics',
          body: '<p>Hi Jane,</p><p>Saw that Northwind is hiring field engineers. Open to a 15-minute chat next week?</p><p>Alex</p>',
          is_text: 0,
        },
      ],
    },
  },

  'lead.add': {
    request: {
      workspace_id: WORKSPACE,
      campaign_id: CAMPAIGN,
      skip_if_in_workspace: false,
      skip_lead_in_active_pause_camp: true,
      skip_lead_for_active_only_camp: false,
      resume_camp_if_completed: true,
      crm_sync: false,
      is_overwrite: false,
      leads: [
        {
          email: 'jane.cooper@northwind-robotics.com',
          first_name: 'Jane',
          last_name: 'Cooper',
          company_name: 'Northwind Robotics',
          company_website: 'https://northwind-robotics.com',
          city: 'Austin',
          country: 'United States',
          country_code: 'US',
          phone_number: '+15125550147',
          network_person_url: 'https://www.linkedin.com/in/jane-cooper',
          custom_variables: { industry: 'Robotics', headcount: '240' },
        },
        {
          email: 'marco.bianchi@fabbrica-digitale.it',
          first_name: 'Marco',
          last_name: 'Bianchi',
          company_name: 'Fabbrica Digitale',
          country_code: 'IT',
          notes: 'Asked to be contacted after Q1',
          custom_variables: { industry: 'Manufacturing' },
        },
      ],
    },
    response: {
      status: 'success',
      total_sent: 2,
      leads_uploaded: 2,
      duplicate_email_count: 0,
      already_in_campaign: 0,
      invalid_email_count: 0,
      skipped: 0,
      remaining_in_plan: 49_212,
      overflowed_lead_count: 0,
    },
  },

  'campaign.addSubsequence': {
    request: {
      workspace_id: WORKSPACE,
      name: 'Interested: book the demo',
      parent_camp_id: CAMPAIGN,
      events: [
        { name: 'LEAD_LABEL_UPDATED', val: ['LEAD_MARKED_AS_INTERESTED', 'LEAD_MARKED_AS_MEETING_BOOKED'] },
        { name: 'LEAD_REPLY_CONTENT', include_text: 'pricing, demo', exclude_text: 'unsubscribe' },
      ],
    },
    response: { status: 'success', id: SUBSEQUENCE },
  },

  'dfy.generateSenderIdentities': {
    request: {
      workspace_id: WORKSPACE,
      profiles: [
        { first_name: 'Jane', last_name: 'Cooper' },
        { first_name: 'Alex', last_name: 'Morgan', middle_name: 'J' },
        { first_name: 'Priya', last_name: 'Nair' },
      ],
    },
    // The real answer to the request above (deterministic): 99 prefixes in total.
    response: {
      senders: [
      {
        first_name: 'Jane',
        last_name: 'Cooper',
        prefixes: ['jane.cooper', 'janecooper', 'jane_cooper', 'jcooper', 'j.cooper', 'cooper.jane', 'cooperjane', 'cooper_jane', 'jane', 'janec', 'jane.c', 'cooperj', 'jane-cooper', 'cooper-jane', 'j_cooper', 'cooper.j', 'cooper_j', 'jane.cooper2', 'janecooper2', 'jane_cooper2', 'jcooper2', 'j.cooper2', 'cooper.jane2', 'jane.cooper3', 'janecooper3', 'jane_cooper3', 'jcooper3', 'j.cooper3', 'cooper.jane3', 'jane.cooper4', 'janecooper4', 'jane_cooper4', 'jcooper4'],
      },
      {
        first_name: 'Alex',
        last_name: 'Morgan',
        prefixes: ['alex.morgan', 'alexmorgan', 'alex_morgan', 'amorgan', 'a.morgan', 'morgan.alex', 'morganalex', 'morgan_alex', 'alex', 'alexm', 'alex.m', 'morgana', 'alex-morgan', 'morgan-alex', 'a_morgan', 'morgan.a', 'morgan_a', 'alex.j.morgan', 'alexjmorgan', 'ajmorgan', 'a.j.morgan', 'alex.morgan2', 'alexmorgan2', 'alex_morgan2', 'amorgan2', 'a.morgan2', 'morgan.alex2', 'alex.morgan3', 'alexmorgan3', 'alex_morgan3', 'amorgan3', 'a.morgan3', 'morgan.alex3'],
      },
      {
        first_name: 'Priya',
        last_name: 'Nair',
        prefixes: ['priya.nair', 'priyanair', 'priya_nair', 'pnair', 'p.nair', 'nair.priya', 'nairpriya', 'nair_priya', 'priya', 'priyan', 'priya.n', 'nairp', 'priya-nair', 'nair-priya', 'p_nair', 'nair.p', 'nair_p', 'priya.nair2', 'priyanair2', 'priya_nair2', 'pnair2', 'p.nair2', 'nair.priya2', 'priya.nair3', 'priyanair3', 'priya_nair3', 'pnair3', 'p.nair3', 'nair.priya3', 'priya.nair4', 'priyanair4', 'priya_nair4', 'pnair4'],
      },
      ],
    },
  },

  'placement.recipientProviders': {
    request: { workspace_id: WORKSPACE },
    response: {
      code: 200,
      message: 'success',
      data: [
        { _id: 'PERSONAL', items: [{ recipient_type: 'PERSONAL_PROVIDERA', name: 'Provider A (personal)', account_class: 'PERSONAL' }], count: 1 },
        {
          _id: 'PROFESSIONAL',
          items: [
            { recipient_type: 'PROVIDERA', name: 'Provider A (business)', account_class: 'PROFESSIONAL' },
            { recipient_type: 'PROVIDERB', name: 'Provider B (business)', account_class: 'PROFESSIONAL' },
          ],
          count: 2,
        },
      ],
    },
  },

  'account.testVitals': {
    request: { workspace_id: WORKSPACE, accounts: ['alex@outreach-acme.com', 'sam@outreach-acme.com', 'mia@acme-mail.io', 'outreach-acme.net'] },
    response: {
      status: 'success',
      success_list: [
        { domain: 'outreach-acme.com', allPass: true, spf: true, dkim: true, dmarc: true, mx: true },
        { domain: 'acme-mail.io', allPass: false, spf: true, dkim: false, dmarc: true, mx: true },
      ],
      failure_list: [{ domain: 'outreach-acme.net', error: 'domain does not exist' }],
    },
  },
};
