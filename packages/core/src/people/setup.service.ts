// The one-time setup link that creates an owner (no default password anywhere): printed by the
// start banner while nobody has signed up, and by `npm run cli -- people setup-link`.
import { newId, type PrismaClient } from '@outreach/db';
import { generateSecretToken, hashSecretToken, SETUP_TOKEN_TTL_MS } from './session.rules';

export interface SetupLink {
  link: string;
  /** The organization the owner joins; null: the owner creates a new one. */
  organizationId: string | null;
  expiresAt: Date;
}

/**
 * A new setup link; the unused links of the same target (that organization, or a new one) stop
 * working. The token travels in the URL's fragment, which browsers never send, so it reaches no
 * server log.
 */
export async function createSetupLink(options: { db: PrismaClient; publicUrl: string; organizationId?: string | null; now?: Date }): Promise<SetupLink> {
  const now = options.now ?? new Date();
  const organizationId = options.organizationId ?? null;
  const token = generateSecretToken();
  const expiresAt = new Date(now.getTime() + SETUP_TOKEN_TTL_MS);
  await options.db.$transaction([
    options.db.setupToken.deleteMany({ where: { organizationId, usedAt: null } }),
    options.db.setupToken.create({ data: { id: newId(), tokenHash: hashSecretToken(token), organizationId, expiresAt, createdAt: now } }),
  ]);
  return { link: `${options.publicUrl.replace(/\/+$/, '')}/setup#token=${token}`, organizationId, expiresAt };
}

/**
 * While the installation has no person at all, a fresh setup link (each start makes a new one: only
 * its hash is kept, so an earlier one cannot be shown again); null once someone has signed up. With
 * exactly one organization (the first start's default one), the owner joins it, so that the key
 * printed at the first start and the web app reach the same workspaces.
 */
export async function ensureSetupLink(options: { db: PrismaClient; publicUrl: string; now?: Date }): Promise<SetupLink | null> {
  if ((await options.db.user.count()) > 0) return null;
  const organizations = await options.db.organization.findMany({ select: { id: true }, take: 2 });
  const organizationId = organizations.length === 1 ? organizations[0]!.id : null;
  return createSetupLink({ ...options, organizationId });
}
