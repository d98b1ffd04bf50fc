import { describe, expect, it } from 'vitest';
import {
  bouncedEmailFields,
  emailSentFields,
  labelEventFields,
  labelEventName,
  leadFields,
  replyEventFields,
  snippetOf,
  systemAlertFields,
  uniboxEmailSentFields,
  type PayloadLead,
} from './webhook-payload.rules';

const lead: PayloadLead = {
  id: 'lead1',
  email: 'ann@acme.example',
  first_name: 'Ann',
  last_name: null,
  company_name: 'Acme',
  company_website: 'acme.example',
  job_title: 'CTO',
  city: 'Lyon',
  country: 'France',
  phone_number: null,
  custom_variables: { plan: 'pro', seats: 12, email: 'spoof@evil.example', webhook_event: 'X', camp_id: 'other' },
};
const campaign = { id: 'camp1', name: 'Q3 outreach' };
const at = new Date('2025-06-01T10:00:00.000Z');

const LEAD_FLAT = {
  lead_id: 'lead1',
  email: 'ann@acme.example',
  lead_email: 'ann@acme.example',
  first_name: 'Ann',
  last_name: '',
  company_name: 'Acme',
  company_website: 'acme.example',
  job_title: 'CTO',
  city: 'Lyon',
  country: 'France',
  phone_number: '',
  camp_id: 'camp1',
  campaign_name: 'Q3 outreach',
  plan: 'pro',
  seats: 12,
};

describe('webhook payload fields', () => {
  it('flattens the lead and its custom variables, built-ins and envelope keys winning', () => {
    expect(leadFields(lead, campaign)).toEqual(LEAD_FLAT);
    expect(leadFields({ id: 'l', email: 'e@x.example' }, null)).toMatchObject({ camp_id: '', campaign_name: '', first_name: '' });
    const proto = leadFields({ id: 'l', email: 'e@x.example', custom_variables: JSON.parse('{"__proto__":{"polluted":1}}') }, null);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });

  it('builds reply events', () => {
    const fields = replyEventFields({
      lead,
      campaign,
      label: 'INTERESTED',
      sentiment: 'POSITIVE',
      reply: {
        id: 'unibox1',
        from_email: 'ann@acme.example',
        to_email: ['me@sender.example'],
        email_account_name: 'me@sender.example',
        cc: ['b@acme.example', 'c@acme.example'],
        subject: 'Re: hello',
        text_body: `Sounds   good.\n\n${'x'.repeat(300)}`,
        html_body: '<p>Sounds good.</p>',
        replied_at: at,
        thread_id: 'thread1',
        message_id: '<r1@acme.example>',
        in_reply_to: '<s1@sender.example>',
      },
    });
    expect(fields).toEqual({
      ...LEAD_FLAT,
      from_email: 'ann@acme.example',
      to_email: 'me@sender.example',
      email_account_name: 'me@sender.example',
      cc: 'b@acme.example, c@acme.example',
      subject: 'Re: hello',
      text_body: `Sounds   good.\n\n${'x'.repeat(300)}`,
      body: '<p>Sounds good.</p>',
      snippet: `Sounds good. ${'x'.repeat(187)}`,
      label: 'INTERESTED',
      sentiment: 'POSITIVE',
      replied_date: '2025-06-01T10:00:00.000Z',
      thread_id: 'thread1',
      message_id: '<r1@acme.example>',
      in_reply_to: '<s1@sender.example>',
      last_email_id: 'unibox1',
    });
    expect((fields['snippet'] as string).length).toBe(200);
    // Text only, no label: body falls back to the text, absent values are "".
    const plain = replyEventFields({
      lead,
      campaign,
      label: null,
      sentiment: null,
      reply: { id: 'u2', from_email: 'a', to_email: 'b', email_account_name: 'b', subject: 's', text_body: 'hi', snippet_text: 'only new', replied_at: '2025-06-01T10:00:00Z', thread_id: 't', message_id: 'm' },
    });
    expect(plain).toMatchObject({ body: 'hi', cc: '', label: '', sentiment: '', in_reply_to: '', snippet: 'only new', replied_date: '2025-06-01T10:00:00.000Z' });
  });

  it('cuts snippets by characters, not UTF-16 units', () => {
    expect(snippetOf(`${'a'.repeat(199)}😀😀`)).toBe(`${'a'.repeat(199)}😀`);
    expect(snippetOf(null)).toBe('');
  });

  it('builds label events', () => {
    expect(labelEventName('INTERESTED')).toBe('LEAD_MARKED_AS_INTERESTED');
    expect(
      labelEventFields({
        lead,
        campaign,
        label: 'INTERESTED',
        sentiment: 'POSITIVE',
        lastReply: { id: 'unibox1', thread_id: 'thread1', subject: 'Re: hello', html_body: '', text_body: 'Sounds good' },
        mailboxEmail: 'me@sender.example',
      }),
    ).toEqual({
      ...LEAD_FLAT,
      label: 'INTERESTED',
      sentiment: 'POSITIVE',
      last_lead_reply: 'Sounds good',
      last_lead_reply_subject: 'Re: hello',
      actual_replied_from: 'me@sender.example',
      last_email_id: 'unibox1',
      last_thread_id: 'thread1',
      campaign_id: 'camp1',
    });
    expect(labelEventFields({ lead, campaign, label: 'X', sentiment: null, lastReply: null, mailboxEmail: null })).toMatchObject({
      last_lead_reply: '',
      last_lead_reply_subject: '',
      actual_replied_from: '',
      last_email_id: '',
      last_thread_id: '',
      sentiment: '',
    });
  });

  it('builds EMAIL_SENT, BOUNCED_EMAIL and UNIBOX_EMAIL_SENT', () => {
    expect(
      emailSentFields({ lead, campaign, send: { sender_email: 'me@sender.example', subject: 'Hello', body: '<p>Hi</p>', step: 2, variation: 'B', message_id: '<s2@sender.example>', sent_at: at } }),
    ).toEqual({ ...LEAD_FLAT, sender_email: 'me@sender.example', subject: 'Hello', body: '<p>Hi</p>', step: 2, variation: 'B', message_id: '<s2@sender.example>', sent_date: '2025-06-01T10:00:00.000Z' });
    expect(
      bouncedEmailFields({ lead, campaign, bounce: { at, sender_email: 'me@sender.example', message: '550 5.1.1 no such user', bounce_type: 'hard', campaign_paused: true } }),
    ).toEqual({ ...LEAD_FLAT, date: '2025-06-01T10:00:00.000Z', sender_email: 'me@sender.example', msg: '550 5.1.1 no such user', is_camp_paused: true, bounce_type: 'hard' });
    const message = { from_email: 'me@sender.example', to_email: ['ann@acme.example'], subject: 'Re: hello', body: '<p>Thanks</p>', thread_id: 't1', message_id: '<u1@sender.example>', sent_at: at };
    expect(uniboxEmailSentFields({ lead, campaign, message })).toEqual({
      ...LEAD_FLAT,
      from_email: 'me@sender.example',
      to_email: 'ann@acme.example',
      cc: '',
      subject: 'Re: hello',
      body: '<p>Thanks</p>',
      thread_id: 't1',
      message_id: '<u1@sender.example>',
      sent_date: '2025-06-01T10:00:00.000Z',
    });
    expect(uniboxEmailSentFields({ lead: null, campaign: null, message })).toEqual({
      camp_id: '',
      campaign_name: '',
      from_email: 'me@sender.example',
      to_email: 'ann@acme.example',
      cc: '',
      subject: 'Re: hello',
      body: '<p>Thanks</p>',
      thread_id: 't1',
      message_id: '<u1@sender.example>',
      sent_date: '2025-06-01T10:00:00.000Z',
    });
  });

  it('builds each SYSTEM_ALERT with its related ids', () => {
    const date = '2025-06-01T10:00:00.000Z';
    expect(systemAlertFields({ alert_type: 'MAILBOX_DISCONNECTED', email_account_id: 'mb1', email: 'me@sender.example', message: 'login refused', at })).toEqual({
      alert_type: 'MAILBOX_DISCONNECTED',
      message: 'login refused',
      date,
      email_account_id: 'mb1',
      email: 'me@sender.example',
    });
    expect(
      systemAlertFields({ alert_type: 'ACCOUNT_DISCONNECTED', email_account_id: 'mb2', email: 'me@sender.example', provider: 'GOOGLE_WORKSPACE', disconnect_reason: 'oauth_revoked', message: 'grant revoked', at }),
    ).toEqual({
      alert_type: 'ACCOUNT_DISCONNECTED',
      message: 'grant revoked',
      date,
      email_account_id: 'mb2',
      email: 'me@sender.example',
      provider: 'GOOGLE_WORKSPACE',
      disconnect_reason: 'oauth_revoked',
    });
    expect(systemAlertFields({ alert_type: 'CAMPAIGN_AUTO_PAUSED', camp_id: 'camp1', campaign_name: 'Q3', message: 'bounce rate', at })).toEqual({
      alert_type: 'CAMPAIGN_AUTO_PAUSED',
      message: 'bounce rate',
      date,
      camp_id: 'camp1',
      campaign_name: 'Q3',
    });
    expect(systemAlertFields({ alert_type: 'WEBHOOK_DISABLED', disabled_webhook_id: 'h1', disabled_webhook_url: 'https://x.example/in', message: 'disabled', at })).toEqual({
      alert_type: 'WEBHOOK_DISABLED',
      message: 'disabled',
      date,
      disabled_webhook_id: 'h1',
      disabled_webhook_url: 'https://x.example/in',
    });
  });
});
