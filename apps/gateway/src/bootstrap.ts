import type { PrismaClient } from '@outreach/db';
import { createOrganization } from '@outreach/core';

/**
 * On an empty database, creates a default organization, workspace and API key so a
 * fresh install is usable at once. Returns the key (to print once), or null.
 */
export async function bootstrapIfEmpty(options: { db: PrismaClient }) {
  const existing = await options.db.organization.count();
  if (existing > 0) return null;
  return createOrganization({ db: options.db, name: 'Default organization', workspaceName: 'Default workspace' });
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
