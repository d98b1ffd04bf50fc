// Tokens in the links of a sent e-mail (open pixel, unsubscribe): the send's id and a
// MAC over purpose and id, so a link can be neither guessed nor turned into another
// recipient's or another purpose's link. Stateless: nothing is stored per link.
import type { SecretBox } from '../shared/secret-box';

export type TrackingPurpose = 'open' | 'unsubscribe';

const TOKEN = /^([0-9a-f]{24})\.([A-Za-z0-9_-]{22})$/;

/** `<send id>.<tag>`: URL-safe as it is. */
export function trackingToken(options: { secrets: SecretBox; purpose: TrackingPurpose; sendId: string }): string {
  return `${options.sendId}.${options.secrets.mac(`${options.purpose}:${options.sendId}`)}`;
}

/** The send id a token names, or null when it is malformed or its tag does not verify. */
export function readTrackingToken(options: { secrets: SecretBox; purpose: TrackingPurpose; token: string }): string | null {
  const match = TOKEN.exec(options.token);
  if (!match) return null;
  const [, sendId, tag] = match as unknown as [string, string, string];
  return options.secrets.verifyMac(`${options.purpose}:${sendId}`, tag) ? sendId : null;
}

/** Paths the gateway serves the links at (relative to the public URL). */
export const TRACKING_PATHS = { open: '/t/o', unsubscribe: '/t/u' } as const;

/** The absolute links of one send. `publicUrl` has no trailing slash. */
export function trackingLinks(options: { secrets: SecretBox; publicUrl: string; sendId: string }): { pixelUrl: string; unsubscribeUrl: string } {
  const base = options.publicUrl.replace(/\/+$/, '');
  return {
    pixelUrl: `${base}${TRACKING_PATHS.open}/${trackingToken({ ...options, purpose: 'open' })}.gif`,
    unsubscribeUrl: `${base}${TRACKING_PATHS.unsubscribe}/${trackingToken({ ...options, purpose: 'unsubscribe' })}`,
  };
}
