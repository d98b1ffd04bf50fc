// Example values for the OpenAPI document: generated from an operation's JSON Schema (the one
// the document shows) and its field names, so every operation, present or future, has a
// realistic request and response; then checked against the operation's zod schema, and a
// field whose generated value the schema refuses (a rule JSON Schema cannot express) is left
// out when it is optional. The seven operations the interface specification gives in full have
// hand-written examples (openapi-spec-examples.ts).
import type { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Resolves `$ref`s of the document (`#/components/schemas/…`). */
export type RefResolver = (ref: string) => JsonSchema | undefined;

interface Ctx {
  resolve: RefResolver;
  /** The operation's domain (`campaign`, `tag`, …): what a bare `name` names. */
  domain: string;
  io: 'input' | 'output';
  depth: number;
  /** The property holding the object being generated (`from_address_json`, `events`, …). */
  parent: string;
}

const MAX_DEPTH = 8;
const SKIP = Symbol('skip');
type Value = Json | typeof SKIP;

// ─── realistic values ─────────────────────────────────────────────────────────────────

/** A stable 24-hex id per field name, so two id fields of one example differ (workspace_id ≠ to_workspace_id). */
export function exampleId(name: string): string {
  const fixed: Record<string, string> = {
    workspace_id: '6651f0c2a4b7e91d3c5a8f20',
    campaign_id: '6652a1d4e8f3b2c7a9d05e11',
    camp_id: '6652a1d4e8f3b2c7a9d05e11',
    parent_camp_id: '6652a1d4e8f3b2c7a9d05e11',
    lead_id: '6653b7e2c1d9a4f08b6e3d42',
    thread_id: '6654c3f1b8a2d7e96f0a1c53',
    tag_id: '6655d2a9e7c4b1f30d8e6a64',
    client_id: '6656e8b3d2f1a7c49e0b5f75',
    email_acc_id: '6657f4c1a3e9b2d86c1f0a86',
    email_account_id: '6657f4c1a3e9b2d86c1f0a86',
    emailAccount_id: '6657f4c1a3e9b2d86c1f0a86',
    organization_id: '6650a9e3c7b1d4f25e8a0b19',
    org_id: '6650a9e3c7b1d4f25e8a0b19',
  };
  const key = name.replace(/s$/, '');
  if (fixed[key]) return fixed[key]!;
  // FNV-1a over the name, spread over 12 bytes, after a plausible ObjectId time prefix.
  let h = 0x811c9dc5;
  let out = '665';
  for (let i = 0; out.length < 24; i++) {
    h ^= key.charCodeAt(i % Math.max(key.length, 1)) + i;
    h = Math.imul(h, 0x01000193) >>> 0;
    out += (h & 0xff).toString(16).padStart(2, '0');
  }
  return out.slice(0, 24);
}

const PERSON = { first: 'Jane', last: 'Cooper', email: 'jane.cooper@northwind-robotics.com' };
const MAILBOX = 'alex@outreach-acme.com';
const DATE_TIME = '2026-03-02T09:15:00.000Z';

function emailFor(name: string, domain = ''): string {
  // Received e-mails (the unibox's first direction is IN) come from the lead to our mailbox.
  if (domain === 'unibox' && /^from_address/.test(name)) return PERSON.email;
  if (domain === 'unibox' && /^to_address/.test(name)) return MAILBOX;
  if (/^(from|eaccount|email_acc_name|smtp_username|imap_username|email_accounts?)$/.test(name) || /^from_/.test(name)) return MAILBOX;
  if (domain === 'emailAccount' && name === 'email') return MAILBOX;
  if (/client_email/.test(name)) return 'ops@brightpath-agency.com';
  if (/^(entries|value)$/.test(name)) return 'noreply@competitor-mail.com';
  if (/^(cc|bcc)/.test(name)) return 'sam.lee@northwind-robotics.com';
  return PERSON.email;
}

function dateFor(name: string): string {
  if (/end|to$|until/.test(name)) return '2026-03-31';
  if (/start|from$|since/.test(name)) return '2026-03-01';
  return '2026-03-02';
}

const NAME_BY_DOMAIN: Record<string, string> = {
  campaign: 'Q2 outreach: SaaS founders',
  tag: 'Hot prospects',
  leadLabel: 'Meeting booked',
  additionalField: 'industry',
  workspace: 'Acme Sales',
  workspaceSettings: 'Acme Sales',
  webhook: 'CRM sync',
  placement: 'Gmail (personal)',
};

/** A string for a field, by its name (and the operation's domain for a bare `name`). */
function stringFor(name: string, ctx: Ctx): string {
  const n = name.toLowerCase();
  const parent = ctx.parent.toLowerCase();
  // Names whose meaning depends on where they are.
  if (/address_json$/.test(parent)) {
    const lead = /^from/.test(parent) === (ctx.domain === 'unibox');
    return n === 'address' ? (lead ? PERSON.email : MAILBOX) : lead ? `${PERSON.first} ${PERSON.last}` : 'Alex Morgan';
  }
  if (parent === 'chart' && n === 'label') return 'Mar 02';
  if (ctx.domain === 'blocklist' && n === 'value') return 'competitor-mail.com';
  if (parent === 'events' && n === 'name') return 'LEAD_LABEL_UPDATED';
  if (parent === 'variations' && n === 'name') return 'Short intro';
  if (parent === 'schedules' && n === 'name') return 'Weekdays';
  if (n === 'parent_camp_id' && ctx.io === 'output') return '';
  if (/^(message_id|reply_to_id|parent_message_id)$/.test(n)) return '<CAKx7pQ2m9fR1@mail.northwind-robotics.com>';
  if (n === '_id' || n === 'id' || /_ids?$/.test(n) || n === 'ids' || n === 'invite_id') return exampleId(n === '_id' || n === 'id' ? `${ctx.domain}_id` : n);
  if (n === 'days') return 'Monday';
  if (n === 'email_acc_name') return MAILBOX;
  if (/(^|_)(email|lead|eaccount|from|to|cc|bcc|recipient|entries|username|delete_list)(s|_list)?$/.test(n) || /address_email/.test(n) || n === 'email_accounts') return emailFor(n, ctx.domain);
  if (/(_at|^timestamp_.*|_on|^last_run|^last_lead_sent|^last_lead_replied)$/.test(n)) return DATE_TIME;
  if (/(^|_)date$/.test(n) || /^camp_(st|end)_date$/.test(n)) return dateFor(n);
  const table: Record<string, string> = {
    first_name: PERSON.first,
    client_first_name: 'Morgan',
    last_name: PERSON.last,
    client_last_name: 'Reyes',
    middle_name: 'Ann',
    client_business_name: 'Brightpath Agency',
    camp_name: NAME_BY_DOMAIN['campaign']!,
    campaign_name: NAME_BY_DOMAIN['campaign']!,
    workspace_name: NAME_BY_DOMAIN['workspace']!,
    company_name: 'Northwind Robotics',
    company_website: 'https://northwind-robotics.com',
    network_person_url: 'https://www.linkedin.com/in/jane-cooper',
    linkedin_person_url: 'https://www.linkedin.com/in/jane-cooper',
    network_company_url: 'https://www.linkedin.com/company/northwind-robotics',
    linkedin_company_url: 'https://www.linkedin.com/company/northwind-robotics',
    url: 'https://hooks.brightpath-agency.com/outreach/replies',
    job_title: 'VP of Operations',
    notes: 'Met at RoboBusiness 2025',
    address_line: '500 Congress Ave',
    city: 'Austin',
    state: 'TX',
    country: 'United States',
    country_code: 'US',
    phone_number: '+15125550147',
    subject: 'Quick question about Northwind Robotics',
    body: '<p>Hi Jane,</p><p>Saw that Northwind is hiring field engineers. Open to a 15-minute chat next week?</p><p>Alex</p>',
    html: '<p>Hi Alex, thanks for reaching out. Tuesday at 10:00 works for me.</p>',
    text: 'Hi Alex, thanks for reaching out. Tuesday at 10:00 works for me.',
    content_preview: 'Hi Alex, thanks for reaching out. Tuesday at 10:00 works for me.',
    signature: '<p>Alex Morgan · Acme Outreach</p>',
    message_id: '<CAKx7pQ2m9fR1@mail.northwind-robotics.com>',
    parent_message_id: '<CAKx7pQ2m9fR1@mail.northwind-robotics.com>',
    reply_to_id: '<CAKx7pQ2m9fR1@mail.northwind-robotics.com>',
    from_time: '09:00',
    to_time: '17:00',
    timezone: 'America/New_York',
    tz: 'America/New_York',
    color: '#1E90FF',
    icon: 'calendar',
    label: 'INTERESTED',
    key: 'MEETING_BOOKED',
    variation: 'A',
    status: 'ACTIVE',
    warmup_status: 'ACTIVE',
    provider: 'SMTP',
    secret: 'whsec_5b1f9d2c7e4a8063',
    token: '3f7c9a1e5b2d8f4a6c0e9b7d1a3f5c8e',
    api_key: '8f3a1c9e-4b7d2e6f-a0c5d9b1-7e2f4a6c',
    message: 'success',
    description: 'Leads who asked for a demo',
    default_value: 'Robotics',
    smtp_host: 'smtp.outreach-acme.com',
    imap_host: 'imap.outreach-acme.com',
    smtp_password: 'app-password-7Qx2',
    imap_password: 'app-password-7Qx2',
    domain: 'northwind-robotics.com',
    error: 'DNS lookup timed out',
    last_error: 'SMTP login refused: 535 5.7.8 authentication failed',
    disconnect_reason: 'smtp_auth',
    last_resp: '200 OK',
    bounce_msg: '550 5.1.1 The email account that you tried to reach does not exist',
    paused_reason: 'bounce rate 6.2% above the 5% limit',
    file_name: 'northwind-proposal.pdf',
    content_type: 'application/pdf',
    content: 'JVBERi0xLjQKJcOkw7zDtsOfCg==',
    recipient_type: 'PROVIDERA',
    prefixes: 'jane.cooper',
    created_by_label: 'API',
    page_trail: ctx.io === 'input' ? '' : 'MjAyNi0wMy0wMlQwOToxNTowMC4wMDBafDY2NTRjM2Yx',
    email_type: 'received',
    include_text: 'pricing, demo',
    exclude_text: 'unsubscribe',
    hide_labels: 'NOT_INTERESTED',
    event_types: 'ALL_EMAIL_REPLIES',
    evt_types: 'ALL_EMAIL_REPLIES',
    val: 'LEAD_MARKED_AS_INTERESTED',
    dkim_selectors: 's1',
    tracking_domain: 'track.outreach-acme.com',
    unsubscribe_text: 'Not interested? Unsubscribe here.',
    tags: exampleId('tag_id'),
    cmps: exampleId('campaign_id'),
    names: 'industry',
    name: NAME_BY_DOMAIN[ctx.domain] ?? 'Q2 outreach: SaaS founders',
  };
  if (table[n] !== undefined) return table[n]!;
  if (/url|website/.test(n)) return 'https://northwind-robotics.com';
  if (/host/.test(n)) return 'mail.outreach-acme.com';
  if (/password/.test(n)) return 'app-password-7Qx2';
  if (/name/.test(n)) return NAME_BY_DOMAIN[ctx.domain] ?? 'Q2 outreach: SaaS founders';
  return 'Northwind Robotics';
}

/** Strings that satisfy common patterns when the field's own value does not. */
function patternCandidates(name: string): string[] {
  const times = /^to$|end|until/.test(name) ? ['17:00', '09:00'] : ['09:00', '17:00'];
  return [...times, exampleId(name), dateFor(name), 'A', 'LEAD_MARKED_AS_INTERESTED', 'INTERESTED', '#1E90FF', 's1', 'US', 'northwind-robotics.com', PERSON.email, 'abc'];
}

function numberFor(name: string, integer: boolean): number {
  const n = name.toLowerCase();
  const table: Array<[RegExp, number]> = [
    [/smtp_port/, 587],
    [/imap_port/, 993],
    [/port/, 587],
    [/bounce_rate_limit/, 5],
    [/bounce_rate/, 1.8],
    [/reply_rate/, 7.4],
    [/open_rate/, 46.2],
    [/rate/, 3.5],
    [/daily_limit_new_lead/, 20],
    [/message_count/, 4],
    [/daily_limit/, 50],
    [/sending_gap|interval_limit/, 10],
    [/wait_time/, 2],
    [/total_steps/, 3],
    [/step/, 1],
    [/^skip$/, 0],
    [/^page$/, 1],
    [/^limit$/, 100],
    [/size/, 48_213],
    [/^code$/, 200],
    [/bounce|unsub/, 2],
    [/pos_reply|positive/, 4],
    [/neg|neutral/, 1],
    [/repl/, 9],
    [/open|read/, 54],
    [/contacted/, 110],
    [/completed/, 30],
    [/sent|total/, 120],
    [/count|lead/, 150],
    [/ignore_/, 0],
  ];
  const hit = table.find(([re]) => re.test(n))?.[1] ?? 12;
  return integer ? Math.round(hit) : hit;
}

function booleanFor(name: string): boolean {
  return !/(^is_del$|is_system|is_ai_label|is_completed|send_as_txt|preview_only|^skip_|is_overwrite|crm_sync|resume_camp|duplicate_subsequences|is_unread)/.test(name);
}

// ─── generation from a JSON Schema ────────────────────────────────────────────────────

function typesOf(schema: JsonSchema): string[] {
  const t = schema['type'];
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

function deref(schema: JsonSchema, ctx: Ctx): JsonSchema {
  let s = schema;
  for (let i = 0; i < 10 && typeof s['$ref'] === 'string'; i++) {
    const target = ctx.resolve(s['$ref'] as string);
    if (!target) break;
    const { $ref: _ref, ...rest } = s;
    s = { ...target, ...rest };
  }
  return s;
}

function clampNumber(value: number, schema: JsonSchema): number {
  let v = value;
  if (typeof schema['minimum'] === 'number') v = Math.max(v, schema['minimum']);
  if (typeof schema['maximum'] === 'number') v = Math.min(v, schema['maximum']);
  if (typeof schema['exclusiveMinimum'] === 'number' && v <= schema['exclusiveMinimum']) v = schema['exclusiveMinimum'] + 1;
  if (typeof schema['exclusiveMaximum'] === 'number' && v >= schema['exclusiveMaximum']) v = schema['exclusiveMaximum'] - 1;
  return v;
}

function fitString(value: string, schema: JsonSchema, name: string): string {
  let v = value;
  const pattern = typeof schema['pattern'] === 'string' ? safeRegExp(schema['pattern']) : null;
  if (pattern && !pattern.test(v)) v = patternCandidates(name).find((c) => pattern.test(c)) ?? v;
  if (typeof schema['maxLength'] === 'number' && v.length > schema['maxLength']) v = v.slice(0, schema['maxLength']);
  if (typeof schema['minLength'] === 'number' && v.length < schema['minLength']) v = v.padEnd(schema['minLength'], 'x');
  return v;
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}

/** Keys and values of a map-shaped object (`additionalProperties` only), by its field name. */
function recordFor(name: string, record: JsonSchema, value: JsonSchema, ctx: Ctx): Value {
  const n = name.toLowerCase();
  if (n === 'days') return { '1': true, '2': true, '3': true, '4': true, '5': true };
  if (n === 'headers') return { 'Message-ID': '<CAKx7pQ2m9fR1@mail.northwind-robotics.com>' };
  if (n === 'variables') return { first_name: PERSON.first, industry: 'Robotics' };
  const entry = generate(value, n, { ...ctx, depth: ctx.depth + 1 });
  if (entry === SKIP) return {};
  if (typeof entry === 'string') return { industry: 'Robotics' };
  // Keyed by an id ("keyed by campaign id"), or by index as the vendor's lists ({ "0": …, "1": … }).
  const keyedBy = /keyed by (?:the )?([a-z]+)[ _]id/i.exec(String(record['description'] ?? ''));
  return { [keyedBy ? exampleId(`${keyedBy[1]!.toLowerCase()}_id`) : '0']: entry };
}

function generate(input: JsonSchema, name: string, ctx: Ctx): Value {
  if (ctx.depth > MAX_DEPTH) return SKIP;
  const schema = deref(input, ctx);
  if ('const' in schema) return schema['const'] as Json;
  if (Array.isArray(schema['examples']) && schema['examples'].length) return schema['examples'][0] as Json;
  if ('example' in schema) return schema['example'] as Json;
  // Defaults are realistic values, except empty strings.
  if (ctx.io === 'input' && schema['default'] !== undefined && schema['default'] !== '') return schema['default'] as Json;
  if (Array.isArray(schema['enum']) && schema['enum'].length) {
    const values = schema['enum'] as Json[];
    // A realistic pick where the first value would be an odd one (e.g. `email_type: all`).
    return values.find((v) => v === 'ACTIVE') ?? values[0]!;
  }
  const branches = (schema['anyOf'] ?? schema['oneOf']) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length) {
    // The vendor's 0/1 flags: the number, where a branch takes it.
    if (/^(ignore_|is_unread$|is_text$)/.test(name) && branches.some((b) => Array.isArray(deref(b, ctx)['enum']) && (deref(b, ctx)['enum'] as unknown[]).includes(0))) return 0;
    const usable = branches.filter((b) => !typesOf(deref(b, ctx)).every((t) => t === 'null') || typesOf(deref(b, ctx)).length === 0);
    for (const branch of usable.length ? usable : branches) {
      const v = generate(branch, name, ctx);
      if (v !== SKIP) return v;
    }
    return SKIP;
  }
  if (Array.isArray(schema['allOf'])) {
    const merged: JsonSchema = {};
    for (const part of schema['allOf'] as JsonSchema[]) {
      const d = deref(part, ctx);
      merged['type'] ??= d['type'];
      merged['properties'] = { ...(merged['properties'] as JsonSchema), ...(d['properties'] as JsonSchema) };
      merged['required'] = [...((merged['required'] as string[]) ?? []), ...((d['required'] as string[]) ?? [])];
    }
    return generate(merged, name, ctx);
  }
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type = types[0] ?? (schema['properties'] ? 'object' : schema['items'] ? 'array' : undefined);
  switch (type) {
    case 'string': {
      const format = schema['format'];
      const base =
        format === 'email' ? emailFor(name, ctx.domain) : format === 'date-time' ? DATE_TIME : format === 'date' ? dateFor(name) : format === 'uri' || format === 'url' ? stringFor('url', ctx) : stringFor(name, ctx);
      return fitString(base, schema, name);
    }
    case 'integer':
    case 'number':
      return clampNumber(numberFor(name, type === 'integer'), schema);
    case 'boolean':
      return booleanFor(name);
    case 'array': {
      const items = (schema['items'] ?? {}) as JsonSchema;
      // Items take the list's name: the value tables know `tags`, `camp_ids`, `entries`, ….
      const first = generate(items, name, { ...ctx, depth: ctx.depth + 1 });
      if (first === SKIP) return [];
      if (name === 'days' && first === 'Monday') return ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
      const count = Math.max(1, typeof schema['minItems'] === 'number' ? schema['minItems'] : 1);
      return Array.from({ length: count }, () => first);
    }
    case 'object': {
      const properties = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
      const additional = schema['additionalProperties'];
      if (!Object.keys(properties).length && additional && typeof additional === 'object') return recordFor(name, schema, additional as JsonSchema, ctx);
      const out: { [k: string]: Json } = {};
      for (const [key, sub] of Object.entries(properties)) {
        const v = generate(sub, key, { ...ctx, depth: ctx.depth + 1, parent: name });
        if (v !== SKIP) out[key] = v;
      }
      // A catch-all object (leads): show one custom variable.
      if (additional && typeof additional === 'object' && Object.keys(properties).length && /email/.test(Object.keys(properties).join(','))) out['industry'] = 'Robotics';
      return out;
    }
    default: {
      // No type (an unrepresentable transform's input): a value by name, or nothing.
      const n = name.toLowerCase();
      if (/^(is_|skip_|resume_|crm_sync|stop_on|send_as|preview_only)/.test(n)) return booleanFor(n);
      if (/^ignore_/.test(n)) return 0;
      if (/email|^lead$/.test(n)) return emailFor(n, ctx.domain);
      return SKIP;
    }
  }
}

// ─── checking against zod ─────────────────────────────────────────────────────────────

function schemaAtPath(root: JsonSchema, path: PropertyKey[], ctx: Ctx): { parent: JsonSchema; key: PropertyKey } | null {
  let s = deref(root, ctx);
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const branches = (s['anyOf'] ?? s['oneOf']) as JsonSchema[] | undefined;
    if (branches?.length) s = deref(branches.find((b) => !typesOf(deref(b, ctx)).includes('null')) ?? branches[0]!, ctx);
    if (i === path.length - 1) return { parent: s, key };
    if (typeof key === 'number') s = deref((s['items'] ?? {}) as JsonSchema, ctx);
    else s = deref((((s['properties'] ?? {}) as JsonSchema)[key as string] ?? s['additionalProperties'] ?? {}) as JsonSchema, ctx);
  }
  return null;
}

function removeAt(value: Json, path: PropertyKey[]): boolean {
  let node: Json = value;
  for (const key of path.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return false;
    node = (node as Record<string, Json>)[key as string] as Json;
  }
  const last = path[path.length - 1];
  if (node === null || typeof node !== 'object' || Array.isArray(node) || last === undefined || !(String(last) in node)) return false;
  delete (node as Record<string, Json>)[String(last)];
  return true;
}

/**
 * An example for a schema: generated, then checked with the zod schema; an optional field
 * whose value the zod schema refuses is left out (up to a few rounds). Answers the value and
 * whether zod accepts it.
 */
export function exampleFromSchema(options: {
  json: JsonSchema;
  zod: z.ZodType;
  io: 'input' | 'output';
  domain: string;
  resolve: RefResolver;
}): { value: Json; valid: boolean } {
  const ctx: Ctx = { resolve: options.resolve, domain: options.domain, io: options.io, depth: 0, parent: '' };
  const generated = generate(options.json, '', ctx);
  const value: Json = generated === SKIP ? {} : generated;
  for (let round = 0; round < 20; round++) {
    const parsed = options.zod.safeParse(value);
    if (parsed.success) return { value, valid: true };
    let removed = false;
    for (const issue of parsed.error.issues) {
      const path = issue.path as PropertyKey[];
      if (!path.length) continue;
      // The deepest optional object key on the issue's path.
      for (let end = path.length; end > 0 && !removed; end--) {
        const prefix = path.slice(0, end);
        const at = schemaAtPath(options.json, prefix, ctx);
        if (!at || typeof at.key === 'number') continue;
        const required = ((at.parent['required'] ?? []) as string[]).includes(String(at.key));
        if (!required) removed = removeAt(value, prefix);
      }
      if (removed) break;
    }
    if (!removed) return { value, valid: false };
  }
  return { value, valid: options.zod.safeParse(value).success };
}
