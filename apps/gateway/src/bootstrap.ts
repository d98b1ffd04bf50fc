import type { PrismaClient } from '@outreach/db';
import { createOrganizationRecords, issueApiKey } from '@outreach/core';

/** A transaction-scoped advisory lock of our own: processes bootstrapping at once take turns on it. */
const BOOTSTRAP_LOCK = 7_340_215_881;

/**
 * On an empty database, creates a default organization, workspace and API key so a
 * fresh install is usable at once. Returns the key (to print once), or null.
 * Processes starting together on an empty PostgreSQL (compose starts all of them at once)
 * take turns: the first creates the organization, the others find it (without the lock,
 * each created and printed its own).
 */
export async function bootstrapIfEmpty(options: { db: PrismaClient }) {
  return options.db.$transaction(
    async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${BOOTSTRAP_LOCK})`);
      // A statement after the lock: it sees what the process before us committed.
      if ((await tx.organization.count()) > 0) return null;
      const { organizationId, workspaceId } = await createOrganizationRecords({ tx, name: 'Default organization', workspaceName: 'Default workspace' });
      const key = await issueApiKey({ db: tx, organizationId });
      return { organizationId, workspaceId, apiKeyId: key.id, apiKey: key.apiKey };
    },
    // Waiting for the lock is part of the transaction: a slow start of another process must not fail this one.
    { maxWait: 30_000, timeout: 60_000 },
  );
}

/** The banner of a start while nobody has signed up: the one-time link that creates the owner. */
export function setupBanner(setup: { link: string; expiresAt: Date }): string {
  return boxed([
    'Nobody has signed up yet. Open this one-time link to create the owner\'s account:',
    '',
    `  ${setup.link}`,
    '',
    `It works once, until ${setup.expiresAt.toISOString()}; each start prints a new one until`,
    'someone has signed up (`npm run cli -- people setup-link` prints one at any time).',
  ]);
}

function boxed(lines: string[]): string {
  const width = Math.max(...lines.map((l) => l.length)) + 4;
  const bar = '═'.repeat(width);
  return [`╔${bar}╗`, ...lines.map((l) => `║  ${l.padEnd(width - 2)}║`), `╚${bar}╝`].join('\n');
}

export function keyBanner(created: { organizationId: string; workspaceId: string; apiKey: string }): string {
  const lines = [
    'First start: created a default organization, workspace and API key.',
    '',
    `  API key:       ${created.apiKey}`,
    `  workspace_id:  ${created.workspaceId}`,
    `  organization:  ${created.organizationId}`,
    '',
    'The key is shown only this once and stored hashed. Keep it; `npm run cli -- keys create`',
    'issues another one.',
  ];
  return boxed(lines);
}
