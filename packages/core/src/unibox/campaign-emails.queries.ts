import type { PrismaClient } from '@outreach/db';

/**
 * One page of a lead's campaign e-mails, newest first, in one statement. The address
 * may name several lead rows (one per campaign or subsequence): for each, a LATERAL
 * walks (lead_id, sent_at DESC, id DESC) in order from the keyset and stops at the
 * page size, so only a page per lead row is merged, however many e-mails there are
 * and however deep the page. Parameters: $1 workspace, $2 normalised address, $3
 * campaign or null, $4/$5 the last row's sent_at and id (or null), $6 rows to fetch.
 */
export const CAMPAIGN_EMAILS_SQL = `
  SELECT s.id, s.organization_id, s.workspace_id, s.lead_id, l.email AS lead, coalesce(a.email, '') AS eaccount,
         s.campaign_id, coalesce(s.parent_campaign_id, '') AS parent_camp_id, s.step AS current_step,
         s.variation_label AS variation, s.sent_at, s.message_id, s.subject, s.body, s.is_text
    FROM leads l
   CROSS JOIN LATERAL (
         SELECT * FROM sent_emails s
          WHERE s.lead_id = l.id
            AND ($3::text IS NULL OR s.campaign_id = $3)
            AND ($4::timestamptz IS NULL OR (s.sent_at, s.id) < ($4::timestamptz, $5::text))
          ORDER BY s.sent_at DESC, s.id DESC
          LIMIT $6) s
    LEFT JOIN email_accounts a ON a.id = s.email_account_id
   WHERE l.workspace_id = $1 AND l.email_normalized = $2
   ORDER BY s.sent_at DESC, s.id DESC
   LIMIT $6`;

export interface CampaignEmailRow {
  id: string;
  organization_id: string;
  workspace_id: string;
  lead_id: string;
  lead: string;
  eaccount: string;
  campaign_id: string;
  parent_camp_id: string;
  current_step: number;
  variation: string;
  sent_at: Date;
  message_id: string;
  subject: string;
  body: string;
  is_text: boolean;
}

export function campaignEmailRows(options: {
  db: PrismaClient;
  workspaceId: string;
  email: string;
  campaignId: string | null;
  after: { at: Date; id: string } | null;
  take: number;
}): Promise<CampaignEmailRow[]> {
  return options.db.$queryRawUnsafe<CampaignEmailRow[]>(
    CAMPAIGN_EMAILS_SQL,
    options.workspaceId,
    options.email,
    options.campaignId,
    options.after?.at ?? null,
    options.after?.id ?? null,
    options.take,
  );
}
