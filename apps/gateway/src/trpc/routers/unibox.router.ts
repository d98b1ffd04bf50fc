import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const uniboxRouter = router({
  campaignEmails: procedureFor(operations.unibox.campaignEmails),
  emails: procedureFor(operations.unibox.emails),
  threads: procedureFor(operations.unibox.threads),
  otherEmails: procedureFor(operations.unibox.otherEmails),
  unreadCount: procedureFor(operations.unibox.unreadCount),
  markThreadRead: procedureFor(operations.unibox.markThreadRead),
  markThreadUnread: procedureFor(operations.unibox.markThreadUnread),
  deleteThread: procedureFor(operations.unibox.deleteThread),
  deleteEmail: procedureFor(operations.unibox.deleteEmail),
  reply: procedureFor(operations.unibox.reply),
  forward: procedureFor(operations.unibox.forward),
  compose: procedureFor(operations.unibox.compose),
  send: procedureFor(operations.unibox.send),
  saveDraft: procedureFor(operations.unibox.saveDraft),
});
