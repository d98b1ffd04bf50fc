// The CLI's organization commands (`outreach org …`, see cli.ts): what they change and what they print.
import type { PrismaClient } from '@outreach/db';

/** What `org set-warmup-pool` prints: the organization's opt-in, and whether it takes effect. */
export interface WarmupPoolState {
  organization_id: string;
  warmup_shared_pool: boolean;
  /** WARMUP_SHARED_POOL of the environment the command ran in: the worker shares nothing while it is off. */
  installation_shared_pool: boolean;
  /** Organizations opted in now, this one included when it is. */
  opted_in_organizations: number;
  note: string;
}

function noteOf(shared: boolean, installation: boolean, optedIn: number): string {
  if (!shared) return "the organization's mailboxes warm up only with each other";
  if (!installation) return "opted in, but WARMUP_SHARED_POOL is off here: the organization's mailboxes warm up only with each other until it is on";
  return optedIn > 1
    ? `the organization's mailboxes warm up with those of the ${optedIn - 1} other opted-in organization(s) too`
    : "opted in; no other organization is, so its mailboxes warm up only with each other for now";
}

/**
 * Opts an organization in to the installation's shared warmup pool, or out of it
 * (docs/operations.md, "Warmup"). Null when there is no such organization.
 */
export async function setWarmupSharedPool(options: {
  db: PrismaClient;
  organizationId: string;
  shared: boolean;
  installationSharedPool: boolean;
}): Promise<WarmupPoolState | null> {
  const { db, organizationId, shared } = options;
  const [updated, optedIn] = await db.$transaction([
    db.organization.updateMany({ where: { id: organizationId }, data: { warmupSharedPool: shared } }),
    db.organization.count({ where: { warmupSharedPool: true } }),
  ]);
  if (!updated.count) return null;
  return {
    organization_id: organizationId,
    warmup_shared_pool: shared,
    installation_shared_pool: options.installationSharedPool,
    opted_in_organizations: optedIn,
    note: noteOf(shared, options.installationSharedPool, optedIn),
  };
}

/** What `org list` prints for each organization, oldest first. */
export async function listOrganizations(options: { db: PrismaClient }) {
  const orgs = await options.db.organization.findMany({
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, name: true, leadAllowance: true, leadCount: true, warmupSharedPool: true, createdAt: true, _count: { select: { workspaces: true } } },
  });
  return orgs.map((o) => ({
    organization_id: o.id,
    name: o.name,
    workspaces: o._count.workspaces,
    lead_allowance: o.leadAllowance,
    lead_count: o.leadCount,
    warmup_shared_pool: o.warmupSharedPool,
    created_at: o.createdAt,
  }));
}
