/**
 * Bounce protection: a campaign whose bounce rate over its last 100 sends passes its limit
 * is paused. Called, inside their transaction, by the delivery of a bounced send (sending/)
 * and by reply ingestion when a bounce comes back by mail (replies/): shared, so that neither
 * domain imports the other for it.
 */
import type { Tx } from '@outreach/db';
import { CAMPAIGN_FOR_BOUNCE_CHECK_SQL, RECENT_BOUNCES_SQL } from './bounce-protection.queries';

/** Bounce protection judges a campaign only once it has this many sends. */
export const BOUNCE_RATE_MIN_SENDS = 10;

/** Pauses the campaign when its bounce rate over the last 100 sends passes its limit; the reason, or null. */
export async function pauseOnBounceRate(options: { tx: Tx; campaignId: string; now: Date }): Promise<string | null> {
  const { tx, campaignId, now } = options;
  const [campaign] = await tx.$queryRawUnsafe<{ status: string; pause_on_bounce_rate: boolean; bounce_rate_limit: number }[]>(
    CAMPAIGN_FOR_BOUNCE_CHECK_SQL,
    campaignId,
  );
  if (!campaign || campaign.status !== 'ACTIVE' || !campaign.pause_on_bounce_rate) return null;
  const [recent] = await tx.$queryRawUnsafe<{ bounced: number; sent: number }[]>(RECENT_BOUNCES_SQL, campaignId);
  if (!recent || recent.sent < BOUNCE_RATE_MIN_SENDS) return null;
  const rate = (recent.bounced / recent.sent) * 100;
  if (rate <= campaign.bounce_rate_limit) return null;
  const reason = `bounce rate ${rate.toFixed(1)}% over the last ${recent.sent} sends passed the ${campaign.bounce_rate_limit}% limit`;
  await tx.campaign.update({ where: { id: campaignId }, data: { status: 'PAUSED', pausedReason: reason, pausedAt: now } });
  return reason;
}
