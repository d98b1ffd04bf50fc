import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../shared/mail-html';
import { escapeSpintax, personalize, templateVariables } from './personalize.rules';

const lead = { first_name: 'Ada', last_name: 'Lovelace', company_name: 'Analytical Engines', Industry: 'Computing' };

function text(template: string, variables: Record<string, string | null | undefined> = lead, extra: { html?: boolean; spintax?: boolean } = {}): string {
  const result = personalize({ template, variables, ...extra });
  if (!result.ok) throw new Error(`missing ${result.missing.join(', ')}`);
  return result.text;
}

describe('personalize', () => {
  it('replaces built-in and custom variables', () => {
    expect(text('Hi {{first_name}} at {{company_name}} ({{Industry}})')).toBe('Hi Ada at Analytical Engines (Computing)');
  });

  it('ignores whitespace inside the braces', () => {
    expect(text('Hi {{ first_name }}, {{  last_name|x  }}')).toBe('Hi Ada, Lovelace');
  });

  it('matches built-in names case-insensitively and custom names exactly', () => {
    expect(text('{{First_Name}} {{FIRST_NAME}}')).toBe('Ada Ada');
    const result = personalize({ template: '{{industry}}', variables: lead });
    expect(result).toEqual({ ok: false, missing: ['industry'] });
  });

  it('uses the fallback when the value is missing, null or blank', () => {
    for (const value of [undefined, null, '', '   ']) {
      expect(text('Hi {{first_name|there}}!', { first_name: value })).toBe('Hi there!');
    }
    expect(text('Hi {{ first_name | my friend }}!', {})).toBe('Hi my friend!');
    // An empty fallback makes the variable optional.
    expect(text('Hi{{first_name|}}!', {})).toBe('Hi!');
    // The fallback is not used when there is a value.
    expect(text('Hi {{first_name|there}}!')).toBe('Hi Ada!');
  });

  it('fails listing each missing variable once, in order, canonically named', () => {
    const result = personalize({
      template: '{{Company_Name}} {{first_name|there}} {{job_title}} {{company_name}} {{Score}}',
      variables: { company_name: ' ', job_title: null },
    });
    expect(result).toEqual({ ok: false, missing: ['company_name', 'job_title', 'Score'] });
  });

  it('inserts values as given for text, escaped for HTML', () => {
    const variables = { company_name: 'Smith & <Sons> "Ltd" \'x\'' };
    expect(text('{{company_name}}', variables)).toBe('Smith & <Sons> "Ltd" \'x\'');
    expect(text('<p>{{company_name}}</p>', variables, { html: true })).toBe('<p>Smith &amp; &lt;Sons&gt; &quot;Ltd&quot; &#39;x&#39;</p>');
    // Fallbacks are template text, already in the template's format.
    expect(text('<p>{{first_name|&nbsp;there}}</p>', {}, { html: true })).toBe('<p>&nbsp;there</p>');
  });

  it('escapes values for a later spin() when asked', () => {
    expect(text('{{company_name}}', { company_name: 'A|B {C} \\' }, { spintax: true })).toBe('A\\|B \\{C\\} \\\\');
    expect(text('{{company_name}}', { company_name: 'A & B|C' }, { html: true, spintax: true })).toBe('A &amp; B\\|C');
  });

  it('leaves malformed placeholders as literal text', () => {
    expect(text('Hi {{first_name')).toBe('Hi {{first_name');
    expect(text('Hi first_name}}')).toBe('Hi first_name}}');
    expect(text('{{}} and {{ | x}}')).toBe('{{}} and {{ | x}}');
    expect(text('{{first_name} }}')).toBe('{{first_name} }}');
    // Single braces are spintax's business.
    expect(text('{Hi|Hello} {{first_name}}')).toBe('{Hi|Hello} Ada');
    expect(text('{{{first_name}}}')).toBe('{Ada}');
  });

  it('treats a name as a whole: no partial or prototype matches', () => {
    expect(personalize({ template: '{{toString}} {{first}}', variables: lead })).toEqual({ ok: false, missing: ['toString', 'first'] });
  });
});

describe('escapeHtml / escapeSpintax', () => {
  it('escapes every special character and nothing else', () => {
    expect(escapeHtml(`a&b<c>d"e'f`)).toBe('a&amp;b&lt;c&gt;d&quot;e&#39;f');
    expect(escapeHtml('plain text 123')).toBe('plain text 123');
    expect(escapeSpintax('{a|b}\\')).toBe('\\{a\\|b\\}\\\\');
  });
});

describe('templateVariables', () => {
  it('lists the canonical names used', () => {
    expect(templateVariables('{{First_Name|x}} {{Industry}} {{first_name}} {{}} {{broken')).toEqual(['first_name', 'Industry']);
  });
});
