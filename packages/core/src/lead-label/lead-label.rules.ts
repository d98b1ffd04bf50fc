/**
 * The stable key of a custom label, from its name: upper case, each run of
 * characters other than A-Z and 0-9 one `_`, no `_` at either end
 * ("Demo scheduled!" → DEMO_SCHEDULED). Accents are dropped first ("Réunion" →
 * REUNION) and other non-ASCII letters count as separators, as the key names a
 * webhook event (LEAD_MARKED_AS_<KEY>) and must stay ASCII. Empty when nothing is left.
 */
export function labelKeyFromName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Keys no custom label may take: the vendor keeps a hidden IN_SEQUENCE label, so a
 * custom one with that key would fire an event clients already read otherwise.
 */
export const RESERVED_LABEL_KEYS: readonly string[] = ['IN_SEQUENCE'];
