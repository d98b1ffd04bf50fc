// Which pixel fetches are people reading the e-mail and which are machines. Security
// scanners and link/image prefetchers fetch every image of a message right on delivery,
// and some providers fetch images through their own proxy (so the user agent names the
// proxy, not the reader's mail client). Those opens are still recorded, marked
// `is_machine`, and never set a send's `opened_at`.

/** An open less than this long after the send is a scanner or prefetcher. */
export const MACHINE_OPEN_MIN_DELAY_MS = 10_000;

/**
 * Substrings (compared case-insensitively) of the user agents of image proxies,
 * security scanners and bots. A user agent containing any of them is a machine open.
 */
export const MACHINE_USER_AGENT_PATTERNS = [
  // Gmail's image proxy: "… (via ggpht.com GoogleImageProxy)".
  'GoogleImageProxy',
  'ggpht.com',
  // Yahoo Mail's image proxy.
  'YahooMailProxy',
  // Mail security gateways that scan links and images on delivery.
  'Barracuda',
  'Mimecast',
  'Proofpoint',
  // Generic bots and crawlers.
  'bot',
  'crawler',
  'spider',
  // HTTP libraries and command-line tools: no mail client fetches with these.
  'curl/',
  'python-requests',
  'python-urllib',
  'Go-http-client',
  'wget',
  'libwww-perl',
  'Apache-HttpClient',
  'HeadlessChrome',
] as const;

const LOWERCASE_PATTERNS = MACHINE_USER_AGENT_PATTERNS.map((p) => p.toLowerCase());

export type MachineOpenReason = 'too_soon' | 'proxy' | 'no_user_agent';

export interface OpenClassification {
  machine: boolean;
  /** Why the open is a machine's; null for a human open. */
  reason: MachineOpenReason | null;
}

/** The pattern of MACHINE_USER_AGENT_PATTERNS the user agent contains, or null. */
export function machineUserAgentPattern(userAgent: string): string | null {
  const ua = userAgent.toLowerCase();
  const index = LOWERCASE_PATTERNS.findIndex((p) => ua.includes(p));
  return index < 0 ? null : (MACHINE_USER_AGENT_PATTERNS[index] ?? null);
}

/**
 * A machine open when it comes less than MACHINE_OPEN_MIN_DELAY_MS after the send (also
 * when it is dated before the send: clock skew between workers), when the user agent is
 * missing or blank, or when it names a known proxy, scanner or bot. The time rule is
 * checked first: it needs nothing from the request.
 */
export function classifyOpen(options: { sentAt: Date; openedAt: Date; userAgent: string | null | undefined }): OpenClassification {
  if (options.openedAt.getTime() - options.sentAt.getTime() < MACHINE_OPEN_MIN_DELAY_MS) return { machine: true, reason: 'too_soon' };
  const userAgent = options.userAgent?.trim() ?? '';
  if (!userAgent) return { machine: true, reason: 'no_user_agent' };
  if (machineUserAgentPattern(userAgent) !== null) return { machine: true, reason: 'proxy' };
  return { machine: false, reason: null };
}
