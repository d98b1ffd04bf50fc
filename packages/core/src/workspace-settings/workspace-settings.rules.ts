/** What a workspace answers for a setting it never stored. */
export const SETTINGS_DEFAULTS = {
  timezone: 'UTC',
  tracking_domain: '',
  dkim_selectors: [] as string[],
  unsubscribe_text: "If you'd rather not hear from me, let me know.",
  default_daily_limit: 30,
  default_sending_gap: 10,
};

/** The keys of `workspaces.settings` this domain owns (others' keys are left alone on write). */
export interface StoredSettings {
  tracking_domain: string;
  dkim_selectors: string[];
  unsubscribe_text: string;
  default_daily_limit: number;
  default_sending_gap: number;
}

const MAX_DAILY_LIMIT = 10_000;
const MAX_SENDING_GAP = 1_440;

function isRecord(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

function intIn(value: unknown, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max;
}

/**
 * The settings JSON as stored, each key falling back to its default when missing or
 * of the wrong shape: the column is free-form JSON that rows written before this
 * domain existed (or by hand) may hold anything in.
 */
export function readStoredSettings(settings: unknown): StoredSettings {
  const s = isRecord(settings) ? settings : {};
  const selectors = s['dkim_selectors'];
  return {
    tracking_domain: typeof s['tracking_domain'] === 'string' ? s['tracking_domain'] : SETTINGS_DEFAULTS.tracking_domain,
    dkim_selectors: Array.isArray(selectors) ? selectors.filter((x): x is string => typeof x === 'string') : [...SETTINGS_DEFAULTS.dkim_selectors],
    unsubscribe_text: typeof s['unsubscribe_text'] === 'string' ? s['unsubscribe_text'] : SETTINGS_DEFAULTS.unsubscribe_text,
    default_daily_limit: intIn(s['default_daily_limit'], MAX_DAILY_LIMIT) ? s['default_daily_limit'] : SETTINGS_DEFAULTS.default_daily_limit,
    default_sending_gap: intIn(s['default_sending_gap'], MAX_SENDING_GAP) ? s['default_sending_gap'] : SETTINGS_DEFAULTS.default_sending_gap,
  };
}

export const SETTINGS_LIMITS = { MAX_DAILY_LIMIT, MAX_SENDING_GAP };

/** An IANA zone name the runtime knows (what every date formatting in the product will use). */
export function isValidTimeZone(zone: string): boolean {
  if (!zone) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A fully qualified hostname: at least two labels, 253 characters at most, no trailing dot. */
export function isHostname(value: string): boolean {
  if (value.length > 253) return false;
  const labels = value.split('.');
  return labels.length >= 2 && labels.every((label) => HOST_LABEL.test(label)) && !/^[0-9]+$/.test(labels.at(-1) ?? '');
}

/**
 * The shape the domain-vitals check accepts for `settings.dkim_selectors` (it ignores
 * anything else), so a selector saved here is one that check will try.
 */
export const DKIM_SELECTOR = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
