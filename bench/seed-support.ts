// What the benchmark seeds share: each lives in an organization of its own name, records
// what it made in its workspace's settings under a key, and is reused by later runs.
import type pg from 'pg';
import { createOrganization } from '@outreach/core';
import type { Database } from '@outreach/db';

/** The seed recorded under `key` by an earlier run, or null. */
export async function existingSeed<T>(options: { pool: pg.Pool; name: string; key: string }): Promise<T | null> {
  const found = await options.pool.query<{ settings: Record<string, unknown> }>(
    `SELECT w.settings FROM organizations o JOIN workspaces w ON w.organization_id = o.id WHERE o.name = $1 AND w.settings ? $2 LIMIT 1`,
    [options.name, options.key],
  );
  const seed = (found.rows[0]?.settings[options.key] as T | undefined) ?? null;
  // A run stopped mid-seed (killed before its rollback's clean-up) left its organization without
  // the mark: it goes, or the new seed would collide with the rows it kept.
  if (!seed) await options.pool.query(`DELETE FROM organizations WHERE name = $1`, [options.name]);
  return seed;
}

/** A new organization for a seed, a connection to fill it with, and a step runner that logs each statement's rows and time. */
export async function startSeed(options: { db: Database; pool: pg.Pool; name: string; workspaceName: string; log: (line: string) => void; prefix: string }) {
  const org = await createOrganization({ db: options.db.prisma, name: options.name, workspaceName: options.workspaceName, leadAllowance: 100_000_000 });
  const client = await options.pool.connect();
  const step = async (label: string, sql: string, params: unknown[] = []) => {
    const t0 = Date.now();
    const r = await client.query(sql, params);
    options.log(`${options.prefix}: ${label} (${r.rowCount ?? 0} rows, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  };
  return { org, ws: org.workspaceId, client, step };
}
