import type { Tx } from '@outreach/db';
import { defineOperation } from '../shared/operation';
import { notFound, preconditionFailed } from '../shared/errors';
import { DeleteEmailInput, ThreadInput, UniboxStatusOutput } from './unibox.schemas';
import { FIND_MESSAGE_SQL } from './unibox.queries';
import { bareMessageId } from './unibox.rules';

export const threadNotFound = (threadId: string) => notFound('unibox.thread_not_found', `thread_id ${threadId} is not a unibox thread of this workspace`);
export const emailNotFound = (field: string, ref: string) => notFound('unibox.email_not_found', `${field} ${ref} is not a unibox e-mail of this workspace`);

/** Locks a thread of the workspace for the rest of the transaction; null when there is none. */
export async function lockThread(options: { tx: Tx; workspaceId: string; threadId: string }): Promise<{ id: string } | null> {
  const [row] = await options.tx.$queryRawUnsafe<{ id: string }[]>(
    'SELECT id FROM unibox_threads WHERE id = $1 AND workspace_id = $2 FOR UPDATE',
    options.threadId,
    options.workspaceId,
  );
  return row ?? null;
}

/** Finds a unibox message of the workspace by our id or its Message-ID (with or without brackets). */
export async function findMessageId(options: { db: Pick<Tx, '$queryRawUnsafe'>; workspaceId: string; ref: string }): Promise<string | null> {
  const ref = options.ref.trim();
  const [row] = await options.db.$queryRawUnsafe<{ id: string }[]>(FIND_MESSAGE_SQL, options.workspaceId, ref, bareMessageId(ref));
  return row?.id ?? null;
}

export const markThreadRead = defineOperation({
  name: 'unibox.markThreadRead',
  kind: 'mutation',
  summary: 'Mark Email Read',
  description: 'Marks a thread and every e-mail in it read (the unread count drops accordingly). A thread that is not one of the workspace is 404.',
  input: ThreadInput,
  output: UniboxStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    await ctx.db.$transaction(async (tx) => {
      const thread = await lockThread({ tx, workspaceId: input.workspace_id, threadId: input.thread_id });
      if (!thread) throw threadNotFound(input.thread_id);
      await tx.uniboxThread.update({ where: { id: thread.id }, data: { isUnread: false } });
      await tx.uniboxMessage.updateMany({ where: { workspaceId: input.workspace_id, threadId: thread.id, isUnread: true }, data: { isUnread: false } });
    });
    return { status: 'success' as const };
  },
});

export const markThreadUnread = defineOperation({
  name: 'unibox.markThreadUnread',
  kind: 'mutation',
  summary: 'Mark Email Unread',
  description:
    'Our addition: marks a thread unread again, as a person does to come back to it later: its latest received e-mail becomes unread (the unread count rises by one unless it already was). A thread without a received e-mail in the inbox is 400 `unibox.nothing_received`; a thread that is not one of the workspace is 404.',
  input: ThreadInput,
  output: UniboxStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_LIST',
  async run(ctx, input) {
    await ctx.db.$transaction(async (tx) => {
      const thread = await lockThread({ tx, workspaceId: input.workspace_id, threadId: input.thread_id });
      if (!thread) throw threadNotFound(input.thread_id);
      const latest = await tx.uniboxMessage.findFirst({
        where: { workspaceId: input.workspace_id, threadId: thread.id, folder: 'INBOX', direction: 'IN' },
        orderBy: [{ receivedAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      });
      if (!latest) throw preconditionFailed('unibox.nothing_received', `thread_id ${input.thread_id} holds no received e-mail to mark unread`);
      await tx.uniboxMessage.update({ where: { id: latest.id }, data: { isUnread: true } });
      await tx.uniboxThread.update({ where: { id: thread.id }, data: { isUnread: true } });
    });
    return { status: 'success' as const };
  },
});

export const deleteThread = defineOperation({
  name: 'unibox.deleteThread',
  kind: 'mutation',
  summary: 'Delete an Entire Email Thread',
  description: 'Deletes a thread and every e-mail in it from the unibox (the campaign sends themselves stay in the statistics). A thread that is not one of the workspace is 404.',
  input: ThreadInput,
  output: UniboxStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_DELETE',
  async run(ctx, input) {
    const deleted = await ctx.db.$transaction((tx) => tx.uniboxThread.deleteMany({ where: { id: input.thread_id, workspaceId: input.workspace_id } }));
    if (!deleted.count) throw threadNotFound(input.thread_id);
    return { status: 'success' as const };
  },
});

export const deleteEmail = defineOperation({
  name: 'unibox.deleteEmail',
  kind: 'mutation',
  summary: 'Delete a Single Email Message',
  description:
    '`message_id` names the e-mail by its Message-ID (with or without angle brackets) or by its unibox id. Deleting the last e-mail of a thread deletes the thread; otherwise the thread\'s latest time and unread flag follow the e-mails left. An e-mail that is not one of the workspace is 404.',
  input: DeleteEmailInput,
  output: UniboxStatusOutput,
  workspace: 'required',
  permission: 'CAMPAIGN_DELETE',
  async run(ctx, input) {
    const workspaceId = input.workspace_id;
    await ctx.db.$transaction(async (tx) => {
      const id = await findMessageId({ db: tx, workspaceId, ref: input.message_id });
      const message = id ? await tx.uniboxMessage.findFirst({ where: { id, workspaceId }, select: { id: true, threadId: true } }) : null;
      if (!message) throw emailNotFound('message_id', input.message_id);
      // The thread first, so that a concurrent delete of its other e-mail cannot leave it empty.
      await lockThread({ tx, workspaceId, threadId: message.threadId });
      await tx.uniboxMessage.delete({ where: { id: message.id } });
      const [left] = await tx.$queryRawUnsafe<{ n: number; last_at: Date | null; unread: boolean }[]>(
        `SELECT count(*)::int AS n, coalesce(max(received_at) FILTER (WHERE folder <> 'DRAFTS'), max(received_at)) AS last_at, coalesce(bool_or(is_unread AND direction = 'IN'), false) AS unread
           FROM unibox_messages WHERE thread_id = $1`,
        message.threadId,
      );
      if (!left || left.n === 0 || !left.last_at) {
        await tx.uniboxThread.deleteMany({ where: { id: message.threadId, workspaceId } });
      } else {
        await tx.uniboxThread.updateMany({ where: { id: message.threadId, workspaceId }, data: { lastMessageAt: left.last_at, isUnread: left.unread } });
      }
    });
    return { status: 'success' as const };
  },
});
