// The operations of this domain, keyed as their tRPC procedures are (`unibox.<key>`).
import { listCampaignEmails } from './campaign-emails.operations';
import { countUnreadEmails, listOtherEmails, listUniboxEmails } from './unibox-read.operations';
import { deleteEmail, deleteThread, markThreadRead } from './unibox-manage.operations';
import { composeEmail, forwardEmail, replyToEmail, saveDraft, sendEmail } from './unibox-send.operations';

export const uniboxOperations = {
  campaignEmails: listCampaignEmails,
  emails: listUniboxEmails,
  otherEmails: listOtherEmails,
  unreadCount: countUnreadEmails,
  markThreadRead,
  deleteThread,
  deleteEmail,
  reply: replyToEmail,
  forward: forwardEmail,
  compose: composeEmail,
  send: sendEmail,
  saveDraft,
} as const;
