// Writes unified-inbox threads and e-mails as reply ingestion and the unibox sends store them,
// for the tests of what reads them.
import { newId, type Database } from '@outreach/db';

export interface TestThreadMessage {
  direction: 'IN' | 'OUT';
  at: Date;
  folder?: 'INBOX' | 'OTHERS' | 'DRAFTS';
  label?: string | null;
  /** Default: a received e-mail is unread. */
  unread?: boolean;
  subject?: string;
  /** Default: lead@thread.test for a received e-mail, us@thread.test for ours. */
  from?: string;
}

/**
 * A thread of `workspaceId` with its e-mails. Its latest activity is its latest e-mail outside
 * drafts, and it is unread when a received e-mail is, unless `unread` says otherwise.
 */
export async function createTestThread(options: {
  db: Database['prisma'];
  workspaceId: string;
  emailAccountId?: string | null;
  leadId?: string | null;
  campaignId?: string | null;
  subject?: string;
  unread?: boolean;
  messages: TestThreadMessage[];
}): Promise<{ id: string; messageIds: string[] }> {
  const sent = options.messages.filter((m) => m.folder !== 'DRAFTS');
  const last = new Date(Math.max(...(sent.length ? sent : options.messages).map((m) => m.at.getTime())));
  const unreadOf = (m: TestThreadMessage) => m.unread ?? m.direction === 'IN';
  const id = newId(last.getTime());
  await options.db.uniboxThread.create({
    data: {
      id,
      workspaceId: options.workspaceId,
      emailAccountId: options.emailAccountId ?? null,
      leadId: options.leadId ?? null,
      campaignId: options.campaignId ?? null,
      subject: options.subject ?? 'Hello',
      isUnread: options.unread ?? sent.some(unreadOf),
      lastMessageAt: last,
    },
  });
  const messageIds: string[] = [];
  for (const m of options.messages) {
    const messageId = newId(m.at.getTime());
    messageIds.push(messageId);
    await options.db.uniboxMessage.create({
      data: {
        id: messageId,
        workspaceId: options.workspaceId,
        threadId: id,
        emailAccountId: options.emailAccountId ?? null,
        leadId: options.leadId ?? null,
        campaignId: options.campaignId ?? null,
        direction: m.direction,
        folder: m.folder ?? 'INBOX',
        messageId: `${messageId}@thread.test`,
        fromAddress: m.from ?? (m.direction === 'IN' ? 'lead@thread.test' : 'us@thread.test'),
        subject: m.subject ?? options.subject ?? 'Hello',
        textBody: `Text of ${messageId}`,
        htmlBody: `<p>Text of ${messageId}</p>`,
        isUnread: unreadOf(m),
        label: m.label ?? null,
        receivedAt: m.at,
      },
    });
  }
  return { id, messageIds };
}
