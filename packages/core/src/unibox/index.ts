// The operations of this domain, keyed as their tRPC procedures are (`unibox.<key>`).
import { listCampaignEmails } from './campaign-emails.operations';

export const uniboxOperations = {
  campaignEmails: listCampaignEmails,
} as const;
