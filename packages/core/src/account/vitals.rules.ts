// Pure rules of the domain vitals check: which account entries are acceptable, and
// whether a set of TXT records makes SPF, DMARC or DKIM pass. No I/O here.
import { domainToASCII } from 'node:url';

/** Selectors the big providers and common MTAs publish DKIM keys under. */
export const COMMON_DKIM_SELECTORS = ['google', 'selector1', 'selector2', 'default', 'k1', 's1', 's2', 'dkim', 'mail'] as const;

/**
 * Workspace-configured selectors beyond this are ignored: each one costs a lookup per
 * checked domain, and 500 domains times an unbounded list would be a DNS flood.
 */
export const MAX_CONFIGURED_DKIM_SELECTORS = 20;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// RFC 6376 §3.1: a selector is one or more dot-separated sub-domain labels.
const SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/**
 * A domain name in the form it is looked up in: lower-case, no trailing dot, IDNs in
 * their ASCII (punycode) form. Null for anything that cannot be a mail domain: a
 * single label, a bad label, an all-numeric top-level label (an IP address), over 253
 * characters.
 */
export function normaliseDomain(input: string): string | null {
  let domain = input.trim().toLowerCase();
  if (domain.endsWith('.')) domain = domain.slice(0, -1);
  if (/[^\x00-\x7f]/.test(domain)) domain = domainToASCII(domain);
  if (!domain || domain.length > 253) return null;
  const labels = domain.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (/^[0-9]+$/.test(labels[labels.length - 1] ?? '')) return null;
  return domain;
}

/**
 * The domain an `accounts` entry stands for: the part after the last `@` of an
 * address, or the entry itself when it is a bare domain. Null when it is neither.
 */
export function domainOfAccountEntry(entry: string): string | null {
  const value = entry.trim().toLowerCase();
  const at = value.lastIndexOf('@');
  if (at === -1) return normaliseDomain(value);
  const local = value.slice(0, at);
  // RFC 5321 §4.5.3.1.1: the local part is at most 64 octets.
  if (!local || local.length > 64 || /[\s\x00-\x1f\x7f]/.test(local)) return null;
  return normaliseDomain(value.slice(at + 1));
}

/** A TXT record as node:dns returns it (character-strings) read as one text, per RFC 7208 §3.3. */
export function txtText(chunks: string[]): string {
  return chunks.join('');
}

/** `name=value; name=value` tag lists of DMARC (RFC 7489 §6.4) and DKIM (RFC 6376 §3.2). */
export function parseTagList(text: string): { name: string; value: string }[] {
  return text
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq === -1) return { name: part.toLowerCase(), value: '' };
      return { name: part.slice(0, eq).trim().toLowerCase(), value: part.slice(eq + 1).trim() };
    });
}

/**
 * SPF passes when exactly one TXT record is an SPF record (`v=spf1` followed by a
 * space or the end, any case) and its `all` mechanism, if any, is not `+all` or a bare
 * `all`. Two SPF records are a permerror (RFC 7208 §4.5), so they fail. The first
 * `all` decides wherever it stands, since evaluation never reaches the terms after it.
 */
export function spfPasses(txtRecords: string[][]): boolean {
  const spf = txtRecords.map(txtText).filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
  if (spf.length !== 1) return false;
  const terms = (spf[0] ?? '').trim().split(/\s+/).slice(1);
  const all = terms.find((term) => /^[+\-~?]?all$/i.test(term));
  return all === undefined || /^[-~?]/.test(all);
}

const DMARC_POLICIES = new Set(['none', 'quarantine', 'reject']);

/**
 * DMARC passes when exactly one TXT record at `_dmarc.<domain>` starts with the tag
 * `v=DMARC1` and carries a `p=` of none, quarantine or reject (tags and values
 * compared case-insensitively). Several DMARC records void the policy (RFC 7489
 * §6.6.3), so they fail.
 */
export function dmarcPasses(txtRecords: string[][]): boolean {
  const records = txtRecords
    .map((chunks) => parseTagList(txtText(chunks)))
    .filter((tags) => tags[0]?.name === 'v' && tags[0].value.toLowerCase() === 'dmarc1');
  if (records.length !== 1) return false;
  const policy = records[0]?.find((tag) => tag.name === 'p');
  return policy !== undefined && DMARC_POLICIES.has(policy.value.toLowerCase());
}

/**
 * One TXT record set at `<selector>._domainkey.<domain>` holds a usable DKIM key when
 * a record starts with `v=DKIM1` (or, without a version, names `k=rsa`/`k=ed25519`
 * and has `p=`), and its `p=` is a non-empty base64 key. An empty `p=` is a revoked
 * key (RFC 6376 §3.6.1), so it does not count.
 */
export function dkimRecordPasses(txtRecords: string[][]): boolean {
  return txtRecords.some((chunks) => {
    const tags = parseTagList(txtText(chunks));
    const first = tags[0];
    const key = tags.find((tag) => tag.name === 'p');
    const versioned = first?.name === 'v' && first.value.toLowerCase() === 'dkim1';
    const typed = tags.some((tag) => tag.name === 'k' && ['rsa', 'ed25519'].includes(tag.value.toLowerCase()));
    if (!key || !(versioned || typed)) return false;
    // Base64 in a key record may be folded with whitespace (RFC 6376 §3.2).
    const base64 = key.value.replace(/\s+/g, '');
    return base64.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(base64);
  });
}

/** DKIM passes when any selector's record set holds a usable key. */
export function dkimPasses(recordsBySelector: string[][][]): boolean {
  return recordsBySelector.some(dkimRecordPasses);
}

/**
 * The selectors to try: the common ones, then the workspace's `settings.dkim_selectors`
 * (strings; trimmed, lower-cased, invalid ones and anything but an array ignored,
 * at most MAX_CONFIGURED_DKIM_SELECTORS), without repeats.
 */
export function dkimSelectorsFor(settings: unknown): string[] {
  const selectors = new Set<string>(COMMON_DKIM_SELECTORS);
  const configured =
    settings && typeof settings === 'object' && !Array.isArray(settings) ? (settings as Record<string, unknown>)['dkim_selectors'] : undefined;
  if (!Array.isArray(configured)) return [...selectors];
  let taken = 0;
  for (const raw of configured) {
    if (taken >= MAX_CONFIGURED_DKIM_SELECTORS) break;
    if (typeof raw !== 'string') continue;
    const selector = raw.trim().toLowerCase();
    if (!SELECTOR.test(selector) || selectors.has(selector)) continue;
    taken += 1;
    selectors.add(selector);
  }
  return [...selectors];
}

/** A lookup's result: its records, or the node:dns error code it failed with. */
export type Lookup<T> = { ok: true; records: T } | { ok: false; code: string };

export interface MxRecord {
  exchange: string;
  priority: number;
}

const LOOKUP_ERROR_MESSAGES: Record<string, string> = {
  ENOTFOUND: 'domain does not exist',
  ESERVFAIL: 'DNS server failure',
  ETIMEOUT: 'DNS lookup timed out',
  EREFUSED: 'DNS query refused',
  ECONNREFUSED: 'DNS server unreachable',
  EBADRESP: 'malformed DNS response',
  EFORMERR: 'DNS server rejected the query as malformed',
  ENOTIMP: 'DNS server does not implement the query',
};

/** The short message a `failure_list` entry carries for a node:dns error code. */
export function lookupErrorMessage(code: string): string {
  return LOOKUP_ERROR_MESSAGES[code] ?? `DNS lookup failed (${code})`;
}

/**
 * "No record of that type" rather than a failed lookup: ENODATA anywhere, and
 * ENOTFOUND too, since a missing `_dmarc.` or `._domainkey.` name is the usual way
 * of having no such record (whether the domain itself exists is decided apart).
 */
function isNoRecords(code: string): boolean {
  return code === 'ENODATA' || code === 'ENOTFOUND';
}

function failureOf(lookups: Lookup<unknown>[]): string | null {
  for (const lookup of lookups) {
    if (!lookup.ok && !isNoRecords(lookup.code)) return lookupErrorMessage(lookup.code);
  }
  return null;
}

function recordsOf<T>(lookup: Lookup<T[]>): T[] {
  return lookup.ok ? lookup.records : [];
}

/**
 * Decided from the TXT and MX lookups on the bare domain, before any other: the
 * domain does not exist when both answer NXDOMAIN (ENOTFOUND); either failing
 * otherwise (SERVFAIL, timeout, refused, ...) fails the domain. Null: go on.
 */
export function bareDomainFailure(options: { txt: Lookup<string[][]>; mx: Lookup<MxRecord[]> }): string | null {
  const { txt, mx } = options;
  if (!txt.ok && !mx.ok && txt.code === 'ENOTFOUND' && mx.code === 'ENOTFOUND') return lookupErrorMessage('ENOTFOUND');
  return failureOf([txt, mx]);
}

export interface DomainVitalsVerdict {
  allPass: boolean;
  spf: boolean;
  dkim: boolean;
  dmarc: boolean;
  mx: boolean;
}

/**
 * The verdict on one domain from all its lookups, or the failure message when a
 * lookup that decides a check failed. DKIM is settled by any selector holding a key,
 * so a failed lookup at another selector only fails the domain when none passed.
 */
export function evaluateVitals(options: {
  txt: Lookup<string[][]>;
  mx: Lookup<MxRecord[]>;
  dmarc: Lookup<string[][]>;
  dkim: Lookup<string[][]>[];
}): { ok: true; verdict: DomainVitalsVerdict } | { ok: false; error: string } {
  const bare = bareDomainFailure({ txt: options.txt, mx: options.mx });
  if (bare) return { ok: false, error: bare };
  const dmarcFailure = failureOf([options.dmarc]);
  if (dmarcFailure) return { ok: false, error: dmarcFailure };
  const dkim = dkimPasses(options.dkim.map(recordsOf));
  const dkimFailure = dkim ? null : failureOf(options.dkim);
  if (dkimFailure) return { ok: false, error: dkimFailure };
  const spf = spfPasses(recordsOf(options.txt));
  const dmarc = dmarcPasses(recordsOf(options.dmarc));
  const mx = recordsOf(options.mx).length > 0;
  return { ok: true, verdict: { allPass: spf && dkim && dmarc, spf, dkim, dmarc, mx } };
}
