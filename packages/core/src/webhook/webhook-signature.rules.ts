// Signing webhook deliveries: HMAC-SHA256 over "<timestamp>.<raw body>" with the
// webhook's secret, sent as `X-Outreach-Signature: t=<unix seconds>,v1=<hex>`. The
// timestamp is part of what is signed, so a captured request cannot be replayed later
// than the receiver's tolerance; the event id header lets it drop duplicates within it.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Outreach-Signature';
/** The delivery id: the same on every retry of one event to one webhook (deduplicate on it). */
export const EVENT_ID_HEADER = 'X-Outreach-Event-Id';
export const EVENT_HEADER = 'X-Outreach-Event';
/** Unix seconds of this attempt (also inside the signature header). */
export const TIMESTAMP_HEADER = 'X-Outreach-Timestamp';

export const DEFAULT_SIGNATURE_TOLERANCE_SECONDS = 300;

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');
}

/** The `X-Outreach-Signature` value for `body` (the exact bytes sent) at `timestamp` (unix seconds). */
export function signWebhook(options: { secret: string; timestamp: number; body: string | Buffer }): string {
  if (!Number.isSafeInteger(options.timestamp) || options.timestamp < 0) throw new Error('timestamp must be whole unix seconds');
  return `t=${options.timestamp},v1=${hmacHex(options.secret, options.timestamp, options.body)}`;
}

/**
 * Whether `header` is a valid signature of `body` under `secret`, made within
 * `toleranceSeconds` of `now` (either way). Comparisons are constant-time; several `v1`
 * entries are accepted (any one matching is enough), unknown entries are ignored.
 */
export function verifyWebhookSignature(options: {
  secret: string;
  header: string | null | undefined;
  body: string | Buffer;
  now: Date;
  toleranceSeconds?: number;
}): boolean {
  const tolerance = options.toleranceSeconds ?? DEFAULT_SIGNATURE_TOLERANCE_SECONDS;
  if (!options.header) return false;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of options.header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,15}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || !signatures.length) return false;
  if (Math.abs(Math.floor(options.now.getTime() / 1000) - timestamp) > tolerance) return false;
  const expected = Buffer.from(hmacHex(options.secret, timestamp, options.body), 'hex');
  let ok = false;
  for (const signature of signatures) {
    // Every candidate is compared (no early exit), each in constant time.
    if (timingSafeEqual(Buffer.from(signature, 'hex'), expected)) ok = true;
  }
  return ok;
}
