/**
 * Merge fields in subjects and bodies: `{{first_name}}`, `{{ company_name | your team }}`.
 *
 * Order of rendering a step: personalize() first, then spin() (spintax.rules.ts). Spintax
 * groups may then contain merged values (`{Hi|Hello} {{first_name}}` is fine either way),
 * and spin() leaves any `{{…}}` it still meets untouched. A merged value containing `{`,
 * `|` or `}` would be read as spintax by the later spin(): pass `spintax: true` to escape
 * inserted values for it.
 */
import { escapeHtml } from '../shared/mail-html';

/**
 * Lead columns (snake_case, as the API names them) plus the usual aliases. These resolve
 * case-insensitively (`{{First_Name}}` is `first_name`) because users type them by hand
 * from docs and other tools; the caller supplies them under these lowercase keys.
 */
export const BUILT_IN_VARIABLES = [
  'email',
  'first_name',
  'last_name',
  'company_name',
  'company_website',
  'website',
  'job_title',
  'phone_number',
  'phone',
  'address_line',
  'city',
  'state',
  'country',
  'country_code',
  'personalization',
  'network_person_url',
  'network_company_url',
] as const;

const BUILT_IN = new Set<string>(BUILT_IN_VARIABLES);

// `{{` … `}}` with no brace inside: a lone `{{`, or `{{` closed only after another brace,
// is literal text. The inner text is `name` or `name|fallback`.
const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;

export type PersonalizeResult = { ok: true; text: string } | { ok: false; missing: string[] };

export interface PersonalizeOptions {
  template: string;
  /**
   * Values by variable name: built-ins under their lowercase name, custom variables under
   * their exact name. Null, undefined and blank (whitespace-only) count as no value.
   */
  variables: Record<string, string | null | undefined>;
  /** The template is HTML: escape inserted values (not fallbacks, which are template text). */
  html?: boolean;
  /** spin() runs on the result: backslash-escape `\ { } |` in inserted values so they stay literal. */
  spintax?: boolean;
}

/** Escapes spintax syntax so that spin() outputs the value as written. */
export function escapeSpintax(value: string): string {
  return value.replace(/[\\{}|]/g, (c) => `\\${c}`);
}

/** The name a placeholder resolves to: lowercase for a built-in, exact for a custom variable. */
export function canonicalVariableName(name: string): string {
  const lower = name.toLowerCase();
  return BUILT_IN.has(lower) ? lower : name;
}

/**
 * Replaces every `{{name}}` / `{{name|fallback}}`. Whitespace around the name and the
 * fallback is ignored; `{{name|}}` has an explicit empty fallback (the field is optional).
 * Built-in names are case-insensitive, custom names exact: a custom `Industry` and
 * `industry` are different columns, and a built-in name always means the built-in.
 *
 * A placeholder with no value and no fallback fails the whole render, listing the missing
 * names (canonical, each once, in order of appearance): an e-mail saying "Hi ," is worse
 * than none, so the caller skips the lead instead.
 */
export function personalize(options: PersonalizeOptions): PersonalizeResult {
  const { template, variables, html = false, spintax = false } = options;
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (whole, inner: string) => {
    const bar = inner.indexOf('|');
    const name = (bar === -1 ? inner : inner.slice(0, bar)).trim();
    // `{{}}` or `{{ |x}}` names nothing: not a placeholder.
    if (!name) return whole;
    const key = canonicalVariableName(name);
    // Own keys only: a plain object would otherwise answer `{{toString}}` from its prototype.
    const value = Object.hasOwn(variables, key) ? variables[key] : undefined;
    if (typeof value === 'string' && value.trim() !== '') {
      let inserted = html ? escapeHtml(value) : value;
      if (spintax) inserted = escapeSpintax(inserted);
      return inserted;
    }
    if (bar !== -1) return inner.slice(bar + 1).trim();
    if (!missing.includes(key)) missing.push(key);
    return whole;
  });
  return missing.length ? { ok: false, missing } : { ok: true, text };
}

/** The canonical names of the variables a template uses, each once: lets a caller check a sequence before sending. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const match of template.matchAll(PLACEHOLDER)) {
    const inner = match[1]!;
    const bar = inner.indexOf('|');
    const name = (bar === -1 ? inner : inner.slice(0, bar)).trim();
    if (name && !names.includes(canonicalVariableName(name))) names.push(canonicalVariableName(name));
  }
  return names;
}
