// Shared set-up of the campaign integration tests: a fresh organization per test and a
// `run` that goes through executeOperation (validation, workspace check) as transports do.
import type { Database } from '@outreach/db';
import { createTestTenant } from '../testing/index';
import { executeOperation } from '../shared/operation';
import { operations } from '../operations';
import type { Clock } from '../shared/ports';
import type { Operation } from '../shared/operation';
import type { z } from 'zod';

type CampaignOps = typeof operations.campaign;

export async function campaignTestSetup(options: { db: Database; clock?: Clock }) {
  const { org, deps, ctx, base } = await createTestTenant({ db: options.db, clock: options.clock });
  const ws = { workspace_id: org.workspaceId };
  function run<K extends keyof CampaignOps>(key: K, input: Record<string, unknown>): Promise<z.output<CampaignOps[K]['output']>> {
    const op = operations.campaign[key] as unknown as Operation;
    return executeOperation({ op, ctx, input: { ...ws, ...input } }) as Promise<z.output<CampaignOps[K]['output']>>;
  }
  return { org, deps, ctx, base, ws, run };
}
