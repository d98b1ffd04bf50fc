import { describe, expect, it } from 'vitest';
import { type ComposeOptions, type ComposeResult, compose } from './compose.rules';

const PIXEL = 'https://t.example.com/o/abc?s=1&v=2';
const UNSUBSCRIBE = { url: 'https://t.example.com/u/abc?s=1&v=2', text: 'Unsubscribe' };

function options(extra: Partial<ComposeOptions> = {}): ComposeOptions {
  return {
    subject: 'Quick question, {{first_name}}',
    body: '<p>Hi {{first_name}},</p><p>Short note.</p>',
    variables: { first_name: 'Ada', company_name: 'Analytical Engines' },
    seed: 'lead_1:1',
    sendAsText: false,
    previous: null,
    pixelUrl: null,
    unsubscribe: null,
    ...extra,
  };
}

function sent(extra: Partial<ComposeOptions> = {}): Extract<ComposeResult, { ok: true }> {
  const result = compose(options(extra));
  if (!result.ok) throw new Error(result.reason);
  return result;
}

describe('compose', () => {
  const greeting = ['Hi', 'Hello', 'Hey'];

  it('renders a first step: merge fields, fallbacks and spintax, deterministic per seed', () => {
    const step = options({
      subject: '{Quick|Short} question for {{company_name}}',
      body: '<p>{Hi|Hello|Hey} {{first_name|there}},</p><p>{{job_title|Your team}} at {{company_name}}?</p>',
      variables: { first_name: null, company_name: 'Analytical Engines' },
    });
    const first = compose(step);
    expect(compose(step)).toEqual(first);
    if (!first.ok) throw new Error(first.reason);
    expect(['Quick question for Analytical Engines', 'Short question for Analytical Engines']).toContain(first.subject);
    expect(greeting.map((g) => `<p>${g} there,</p><p>Your team at Analytical Engines?</p>`)).toContain(first.html);
    expect(greeting.map((g) => `${g} there,\n\nYour team at Analytical Engines?`)).toContain(first.text);
    expect(first).toMatchObject({ threaded: false, headers: {} });
    expect(first.inReplyTo).toBeUndefined();
    expect(first.references).toBeUndefined();

    const opening = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const result = compose({ ...step, seed: `lead_${i}:1` });
      if (!result.ok) throw new Error(result.reason);
      opening.add(result.text.split(' ')[0]!);
    }
    expect(opening.size).toBeGreaterThan(1);
    for (const word of opening) expect(greeting).toContain(word);
  });

  it('fails naming every missing variable and where it was missing', () => {
    expect(compose(options({ subject: 'For {{first_name}}', body: '<p>Hello there</p>', variables: {} }))).toEqual({
      ok: false,
      reason: 'no value for {{first_name}} in the subject',
      missing: ['first_name'],
    });
    expect(compose(options({ subject: 'Hello', body: '<p>{{company_name}} in {{city}}, {{company_name}}</p>', variables: {} }))).toEqual({
      ok: false,
      reason: 'no value for {{company_name}}, {{city}} in the body',
      missing: ['city', 'company_name'],
    });
    expect(compose(options({ subject: '{{Industry}} and {{first_name}}', body: '{{company_name}} {{first_name}}', variables: { first_name: ' ' } }))).toEqual({
      ok: false,
      reason: 'no value for {{Industry}}, {{first_name}} in the subject; no value for {{company_name}}, {{first_name}} in the body',
      missing: ['Industry', 'company_name', 'first_name'],
    });
  });

  it('keeps a follow-up with an empty subject in the thread', () => {
    const previous = { subject: 'Quick question, Ada', messageIds: ['a1@mail.example', '<a2@mail.example>'] };
    const result = sent({ subject: '', body: '<p>Any thoughts?</p>', previous });
    expect(result).toMatchObject({
      subject: 'Re: Quick question, Ada',
      threaded: true,
      inReplyTo: '<a2@mail.example>',
      references: '<a1@mail.example> <a2@mail.example>',
    });
    // A subject that renders blank (an optional merge field) threads the same way.
    expect(sent({ subject: '{{personalization|}}', previous })).toMatchObject({ subject: 'Re: Quick question, Ada', threaded: true });
  });

  it('starts a new thread when a follow-up has its own subject', () => {
    const result = sent({ subject: 'New idea for {{first_name}}', previous: { subject: 'Quick question, Ada', messageIds: ['a1@mail.example'] } });
    expect(result.subject).toBe('New idea for Ada');
    expect(result.threaded).toBe(false);
    expect(result).not.toHaveProperty('inReplyTo');
    expect(result).not.toHaveProperty('references');
  });

  it('sends plain text without HTML or pixel, the unsubscribe link as a last line', () => {
    const result = sent({
      body: '<p>Hi {{first_name}},</p><p>See <a href="https://acme.example/demo">the demo</a>.</p>',
      sendAsText: true,
      pixelUrl: PIXEL,
      unsubscribe: UNSUBSCRIBE,
    });
    expect(result.html).toBeNull();
    expect(result.text).toBe(`Hi Ada,\n\nSee the demo (https://acme.example/demo).\n\nUnsubscribe: ${UNSUBSCRIBE.url}`);
    expect(result.text).not.toContain('/o/abc');
    expect(result.headers).toEqual({ 'List-Unsubscribe': `<${UNSUBSCRIBE.url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
  });

  it('keeps a plain-text body as written in plain-text mode, values included', () => {
    const result = sent({ body: 'Hi {{first_name}},\n\nHow is {{company_name}}?', variables: { first_name: 'Ada', company_name: 'Smith & <Sons>' }, sendAsText: true });
    expect(result.text).toBe('Hi Ada,\n\nHow is Smith & <Sons>?');
  });

  it('adds unsubscribe paragraph and pixel to HTML, escaped, before </body>', () => {
    const result = sent({
      body: '<html><body><p>Hi {{first_name}},</p><p>Talk soon.</p></body></html>',
      pixelUrl: PIXEL,
      unsubscribe: UNSUBSCRIBE,
    });
    const unsubscribe = '<p style="font-size:12px;color:#6b7280"><a href="https://t.example.com/u/abc?s=1&amp;v=2">Unsubscribe</a></p>';
    const pixel = '<img src="https://t.example.com/o/abc?s=1&amp;v=2" width="1" height="1" alt="" style="display:none;border:0;width:1px;height:1px">';
    expect(result.html).toBe(`<html><body><p>Hi Ada,</p><p>Talk soon.</p>${unsubscribe}${pixel}</body></html>`);
    expect(result.text).toBe(`Hi Ada,\n\nTalk soon.\n\nUnsubscribe (${UNSUBSCRIBE.url})`);
    expect(result.text).not.toContain('/o/abc');
    expect(result.headers['List-Unsubscribe']).toBe(`<${UNSUBSCRIBE.url}>`);
  });

  it('appends unsubscribe and pixel at the end of a body without </body>; neither when off', () => {
    const on = sent({ pixelUrl: PIXEL, unsubscribe: UNSUBSCRIBE });
    expect(on.html).toMatch(/^<p>Hi Ada,<\/p><p>Short note\.<\/p><p style="[^"]*"><a href="[^"]*">Unsubscribe<\/a><\/p><img src="[^"]*"[^>]*>$/);
    const off = sent();
    expect(off.html).toBe('<p>Hi Ada,</p><p>Short note.</p>');
    expect(off.text).toBe('Hi Ada,\n\nShort note.');
    expect(off.headers).toEqual({});
  });

  it('turns a plain-text-looking body into escaped HTML with <br> line breaks', () => {
    const result = sent({ body: 'Hi {{first_name}},\n\nQ&A on "pricing" <3\r\nBob' });
    expect(result.html).toBe('Hi Ada,<br><br>Q&amp;A on &quot;pricing&quot; &lt;3<br>Bob');
    expect(result.text).toBe('Hi Ada,\n\nQ&A on "pricing" <3\nBob');
  });

  it('escapes lead values in HTML and never spins them', () => {
    const variables = { first_name: '<script>alert(1)</script>', company_name: 'Smith & Sons {a|b}' };
    for (const body of ['<p>Hi {{first_name}} from {{company_name}}</p>', 'Hi {{first_name}} from {{company_name}}']) {
      const result = sent({ subject: '{{company_name}}', body, variables });
      expect(result.html).toContain('Hi &lt;script&gt;alert(1)&lt;/script&gt; from Smith &amp; Sons {a|b}');
      expect(result.html).not.toContain('<script>');
      expect(result.text).toBe('Hi <script>alert(1)</script> from Smith & Sons {a|b}');
      expect(result.subject).toBe('Smith & Sons {a|b}');
    }
  });

  it('keeps the subject on one line', () => {
    expect(sent({ subject: 'Hi {{first_name}}', variables: { first_name: 'Ada\r\nBcc: x@evil.example' } }).subject).toBe('Hi Ada Bcc: x@evil.example');
  });
});
