// Deletes that answer at once: the operations mark what is deleted (`deleted_at`, a tombstone
// every read honours) in one short transaction, and the purge worker removes the rows later in
// bounded batches, each its own short transaction (docs/database.md, "Deletes").
import type { Logger } from 'pino';
import type { PrismaClient, Tx } from '@outreach/db';
import { countRows, columnOf, deleteBatch, deleteLeadBatch, deleteSmallCampaign, deleteTargetRow, nextPurgeTarget, tablesRequiringColumn, tablesWithColumn, type PurgeTarget } from './purge.queries';

/** Rows per batch: a batch of leads (with their events, label counters and inbox links) stays well under a second on a busy machine. */
export const PURGE_BATCH = 2_000;

/**
 * Campaigns with at most this many leads (with their subsequences') are still deleted in the
 * operation's transaction: the cascade is one purge batch's worth, and the rows are gone when the
 * operation answers, as callers of the vendor's API expect.
 */
export const SYNC_DELETE_MAX_LEADS = 1_000;

/**
 * Marks a campaign and its subsequences deleted, and ARCHIVED, so that nothing sends for them
 * (the sending engine reads ACTIVE campaigns) and no enrolment reaches them. In the caller's
 * transaction, which holds the campaign's lock.
 */
export async function tombstoneCampaign(options: { tx: Tx; campaignId: string; now: Date }): Promise<void> {
  await options.tx.$executeRawUnsafe(
    `UPDATE campaigns SET deleted_at = $2, status = 'ARCHIVED' WHERE (id = $1 OR parent_id = $1) AND deleted_at IS NULL`,
    options.campaignId,
    options.now,
  );
}

/**
 * What a deleted workspace (or every workspace of a deleted organization) stops doing at once:
 * its campaigns are deleted too (no more sends), its mailboxes disconnected (no more reading,
 * warmup or automation) and its webhooks disabled.
 */
async function stopWorkspaces(options: { tx: Tx; column: 'id' | 'organization_id'; value: string; now: Date }): Promise<void> {
  const { tx, value, now } = options;
  const scope = options.column === 'id' ? 'workspace_id = $1' : 'organization_id = $1';
  await tx.$executeRawUnsafe(`UPDATE campaigns SET deleted_at = $2, status = 'ARCHIVED' WHERE ${scope} AND deleted_at IS NULL`, value, now);
  await tx.$executeRawUnsafe(
    `UPDATE email_accounts SET status = 'DISCONNECTED', warmup_status = 'INACTIVE', disconnect_reason = 'workspace deleted' WHERE ${scope}`,
    value,
  );
  await tx.$executeRawUnsafe(`UPDATE webhooks SET status = 'DISABLED' WHERE ${scope}`, value);
}

/**
 * Marks a workspace deleted with everything in it. The caller holds the organization's lock and
 * takes the leads of the workspace's live campaigns off the organization's lead counter.
 */
export async function tombstoneWorkspace(options: { tx: Tx; workspaceId: string; now: Date }): Promise<void> {
  const { tx, now } = options;
  await stopWorkspaces({ tx, column: 'id', value: options.workspaceId, now });
  await tx.$executeRawUnsafe('UPDATE workspaces SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL', options.workspaceId, now);
}

/**
 * Deletes an organization: marks it, its workspaces and their campaigns deleted, in one short
 * transaction under the organization's lock (uploads take it too); from then on none of its keys
 * authenticates. Answers false for an unknown or already deleted organization.
 */
export async function deleteOrganization(options: { db: PrismaClient; organizationId: string; now: Date }): Promise<boolean> {
  const { organizationId, now } = options;
  return options.db.$transaction(async (tx) => {
    const locked = await tx.$queryRawUnsafe<{ id: string }[]>('SELECT id FROM organizations WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', organizationId);
    if (!locked.length) return false;
    await stopWorkspaces({ tx, column: 'organization_id', value: organizationId, now });
    await tx.$executeRawUnsafe('UPDATE workspaces SET deleted_at = $2 WHERE organization_id = $1 AND deleted_at IS NULL', organizationId, now);
    await tx.$executeRawUnsafe('UPDATE organizations SET deleted_at = $2, lead_count = 0 WHERE id = $1', organizationId, now);
    return true;
  });
}

export interface PurgeRoundResult {
  /** Nothing is left to purge (the round did nothing). */
  done: boolean;
  target?: PurgeTarget;
  /** The table a batch was taken from, or the target's own table when its row went. */
  table?: string;
  deleted: number;
  /** Rows of `table` still to go for the target after this batch (from a count made when its turn came). */
  left?: number;
}

/** Rows counted when a table's turn came, by target and table, for the progress lines. */
export type PurgeProgress = Map<string, { total: number; deleted: number }>;

/** Drops the progress counts of a target that has gone. */
function forget(options: { progress?: PurgeProgress; target: PurgeTarget }) {
  const prefix = `${options.target.kind}:${options.target.id}:`;
  for (const key of [...(options.progress?.keys() ?? [])]) if (key.startsWith(prefix)) options.progress!.delete(key);
}

/**
 * The order a target's tables are emptied in: sends before leads (a lead's delete would cascade
 * to its sends, unbounded) and leads before the rest; the unified inbox is never deleted with a
 * campaign (its rows are detached with their leads) but is with a workspace. A target's own
 * table (campaigns for a workspace) is skipped: those rows are targets of their own, done first.
 * So are, for an organization, the tables where every row names a workspace (`inWorkspaces`):
 * its rows went with its workspaces, each purged before it, and looking for them again by
 * organization_id scanned whole tables no index of which starts with it (leads and sent_emails:
 * 1.5-2.3 s a round at 3 million rows each, for nothing).
 */
function tableOrder(options: { kind: PurgeTarget['kind']; tables: string[]; inWorkspaces?: readonly string[] }): string[] {
  const first = ['sent_emails', 'leads'];
  const skip = new Set(
    options.kind === 'campaign'
      ? ['campaigns', 'unibox_messages', 'unibox_threads']
      : options.kind === 'workspace'
        ? ['campaigns', 'workspaces']
        : ['workspaces', 'organizations', 'campaigns', ...(options.inWorkspaces ?? [])],
  );
  const rest = options.tables.filter((t) => !skip.has(t) && !first.includes(t));
  return [...first.filter((t) => options.tables.includes(t) && !skip.has(t)), ...rest];
}

/**
 * One round of the purge: one batch (at most `batch` rows, one transaction) of the oldest
 * deleted target's next non-empty table, or its own row once they are empty. Every step is
 * idempotent (it deletes what is still there), so a worker that died mid-purge, or two workers,
 * simply carry on.
 */
export async function runPurgeRound(options: { deps: { db: PrismaClient; log: Logger }; batch?: number; progress?: PurgeProgress }): Promise<PurgeRoundResult> {
  const { db } = options.deps;
  const batch = options.batch ?? PURGE_BATCH;
  const target = await nextPurgeTarget(db);
  if (!target) return { done: true, deleted: 0 };
  if (target.kind === 'campaign') {
    // A tenth of a batch of leads, with up to a batch of sends, is a batch's worth of work in one go.
    const deleted = await deleteSmallCampaign({ db, campaignId: target.id, leads: Math.floor(batch / 10), sends: batch });
    if (deleted !== null) {
      forget({ progress: options.progress, target });
      options.deps.log.debug({ target: target.kind, id: target.id, rows: deleted }, 'purge: small campaign done');
      return { done: false, target, table: 'campaigns', deleted, left: 0 };
    }
  }
  const column = columnOf(target.kind);
  const tables = tableOrder({
    kind: target.kind,
    tables: await tablesWithColumn(db, column),
    inWorkspaces: target.kind === 'organization' ? await tablesRequiringColumn(db, 'workspace_id') : [],
  });
  for (const table of tables) {
    const key = `${target.kind}:${target.id}:${table}`;
    let seen = options.progress?.get(key);
    if (options.progress && !seen) {
      const total = await countRows({ db, table, column, id: target.id });
      if (!total) continue;
      seen = { total, deleted: 0 };
      options.progress.set(key, seen);
      options.deps.log.info({ target: target.kind, id: target.id, table, rows: total }, 'purge: emptying a table');
    }
    const deleted = table === 'leads' && target.kind === 'campaign'
      ? // A lead costs several rows' work (its events, label counters, inbox links): a quarter batch of them.
        await deleteLeadBatch({ db, campaignId: target.id, limit: Math.max(1, Math.floor(batch / 4)) })
      : await deleteBatch({ db, table, column, id: target.id, limit: batch });
    if (!deleted) {
      options.progress?.delete(key);
      continue;
    }
    if (seen) seen.deleted += deleted;
    return { done: false, target, table, deleted, ...(seen ? { left: Math.max(0, seen.total - seen.deleted) } : {}) };
  }
  const deleted = await deleteTargetRow({ db, target });
  forget({ progress: options.progress, target });
  options.deps.log.info({ target: target.kind, id: target.id }, 'purge: done');
  return { done: false, target, table: target.kind === 'campaign' ? 'campaigns' : target.kind === 'workspace' ? 'workspaces' : 'organizations', deleted, left: 0 };
}
