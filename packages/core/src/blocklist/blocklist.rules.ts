// Address and domain syntax for blocklist entries. Deliberately stricter than RFC 5322:
// a blocklist entry must match what the sender compares against, a plain lower-case
// `local@domain` or a bare domain.
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN = `(?:${LABEL}\\.)+[a-z][a-z0-9-]*[a-z0-9]`;
const DOMAIN_RE = new RegExp(`^${DOMAIN}$`);
const ADDRESS_RE = new RegExp(`^[a-z0-9.!#$%&'*+/=?^_\`{|}~-]+@${DOMAIN}$`);

export interface NormalizedEntry {
  value: string;
  isDomain: boolean;
}

/**
 * Trims and lower-cases an entry; a leading `@` or `*@` marks a domain and is dropped.
 * Returns null when the result is neither an address nor a domain.
 */
export function normalizeBlocklistEntry(raw: string): NormalizedEntry | null {
  let value = raw.trim().toLowerCase();
  if (value.startsWith('*@')) value = value.slice(2);
  else if (value.startsWith('@')) value = value.slice(1);
  if (value.length === 0 || value.length > 320) return null;
  if (DOMAIN_RE.test(value) && value.length <= 253) return { value, isDomain: true };
  if (ADDRESS_RE.test(value)) return { value, isDomain: false };
  return null;
}
