import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the unibox operations: method, vendor path (under /api/v1), operation. */
export const uniboxRoutes: Route[] = [
  route('GET', '/unibox/campaign-emails', operations.unibox.campaignEmails),
  route('GET', '/unibox/emails', operations.unibox.emails),
  route('GET', '/unibox/threads', operations.unibox.threads),
  route('GET', '/unibox/other-emails', operations.unibox.otherEmails),
  route('GET', '/unibox/emails/count/unread', operations.unibox.unreadCount),
  route('POST', '/unibox/threads/:thread_id/mark-as-read', operations.unibox.markThreadRead),
  route('POST', '/unibox/threads/:thread_id/mark-as-unread', operations.unibox.markThreadUnread),
  route('DELETE', '/unibox/threads/delete', operations.unibox.deleteThread),
  route('DELETE', '/unibox/emails/delete', operations.unibox.deleteEmail),
  route('POST', '/unibox/emails/reply', operations.unibox.reply),
  route('POST', '/unibox/emails/forward', operations.unibox.forward),
  route('POST', '/unibox/emails/compose', operations.unibox.compose),
  route('POST', '/unibox/emails/send', operations.unibox.send),
  route('POST', '/unibox/emails/save-as-draft', operations.unibox.saveDraft),
];
