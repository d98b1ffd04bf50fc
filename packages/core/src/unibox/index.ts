// The operations of this domain, keyed as their tRPC procedures are (`unibox.<key>`).
import { listCampaignEmails } from './campaign-emails.operations';
import { countUnreadEmails, listOtherEmails, listUniboxEmails } from './unibox-read.operations';
import { deleteEmail, deleteThread, markThreadRead, markThreadUnread } from './unibox-manage.operations';
import { listUniboxThreads } from './unibox-threads.operations';
import { composeEmail, forwardEmail, replyToEmail, saveDraft, sendEmail } from './unibox-send.operations';

// A lead's thread, for the engine and reply ingestion (which thread their messages into it).
export { COPY_CAMPAIGN_SENDS_SQL, COPY_SENDS_INTO_THREADS_SQL, copySendsIntoThreadsCtes, LEAD_THREAD_SQL } from './unibox.queries';

export const uniboxOperations = {
  campaignEmails: listCampaignEmails,
  emails: listUniboxEmails,
  threads: listUniboxThreads,
  otherEmails: listOtherEmails,
  unreadCount: countUnreadEmails,
  markThreadRead,
  markThreadUnread,
  deleteThread,
  deleteEmail,
  reply: replyToEmail,
  forward: forwardEmail,
  compose: composeEmail,
  send: sendEmail,
  saveDraft,
} as const;
