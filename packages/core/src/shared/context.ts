import type { Logger } from 'pino';
import type { PrismaClient } from '@outreach/db';
import type { Ports } from './ports';
import type { SecretBox } from './secret-box';
import type { InstallationSettingValues } from './oauth/oauth-settings';
import type { Observer } from './observer';

/** What a person (or a key issued for one) may do: see shared/role.rules.ts. */
export type PersonRole = 'OWNER' | 'ADMIN' | 'MEMBER' | 'READ_ONLY';

/** Who is calling: resolved from an API key or a session by the transports, before any operation runs. */
export interface Actor {
  organizationId: string;
  apiKeyId: string;
  /** null: every workspace of the organization; otherwise only these. */
  workspaceIds: string[] | null;
  /** Client-access keys: the permissions granted per workspace (null for organization keys). */
  clientGrants: Record<string, { permissions: string[]; hideLabels: string[] }> | null;
  /**
   * Partner keys (an email-infrastructure provider's): the partner's name. `workspaceIds` then
   * holds the workspaces that granted the key, and only the operations marked `partner` run.
   * Absent for every other key.
   */
  partnerName?: string;
  /**
   * The role the caller acts with (assertRoleAllows): a signed-in person's, or the one an API key
   * was issued with (invitations accepted through the API). Absent: full access, as API keys have.
   */
  role?: PersonRole;
  /** A signed-in person (session actors): the user and the session. `apiKeyId` is then ''. */
  userId?: string;
  sessionId?: string;
}

/**
 * The caller of a public operation (accepting an invitation): no organization, no
 * workspace. assertWorkspaceAccess refuses it everywhere, so an operation that is
 * public by mistake still reaches nothing.
 */
export const ANONYMOUS_ACTOR: Actor = Object.freeze({ organizationId: '', apiKeyId: '', workspaceIds: [], clientGrants: null });

export interface Settings {
  /** Lead allowance of an organization whose own allowance is not set. */
  defaultLeadAllowance: number;
  /** Base URL the gateway is reached at from outside (tracking and unsubscribe links), no trailing slash. */
  publicUrl: string;
  /**
   * Outbound requests (webhooks) and mailbox connections (SMTP/IMAP hosts) may go to private,
   * loopback and link-local addresses: for tests and single-machine installs only. The mail
   * adapters take the same setting when they are made (`allowPrivateTargets`).
   */
  allowPrivateTargets: boolean;
  /**
   * The database runs on this process's thread (PGlite): a statement stops every other request
   * while it runs, so long work writes smaller statements (uploadStatementLeads). Absent: as if it did.
   */
  embeddedDatabase?: boolean;
  /**
   * Installation settings given in the environment (OAuth clients, …); they win over the values
   * stored with `outreach settings set` (readInstallationSettings).
   */
  installation?: InstallationSettingValues;
}

/** Per-process memory of facts that never change once true. */
export interface Caches {
  /**
   * workspace id → owning organization id (a workspace never changes organization), trusted for a
   * few seconds (a workspace may be deleted; workspace.delete forgets it at once in its process).
   */
  workspaceOwner: Map<string, { organizationId: string; expires: number }>;
  /**
   * Session lookups of this process (people/session.service.ts), keyed by the token's hash; the
   * people operations that end sessions or change roles clear it, so they take effect at once here.
   */
  sessions: Map<string, { value: unknown; expires: number }>;
  /** Test sends of this process per mailbox id, their times in ms (campaign.sendTest's hourly limit). */
  testSends: Map<string, number[]>;
  /**
   * API-key lookups of this process (auth/authenticate.service.ts), keyed by the key; revoking a
   * key through an operation (apiKey.revoke) clears it, so the key answers 401 at once here.
   */
  apiKeys: Map<string, { actor: Actor | null; expires: number }>;
}

export function createCaches(): Caches {
  return { workspaceOwner: new Map(), sessions: new Map(), testSends: new Map(), apiKeys: new Map() };
}

export interface Ctx {
  actor: Actor;
  db: PrismaClient;
  ports: Ports;
  log: Logger;
  requestId: string;
  settings: Settings;
  caches: Caches;
  /** Encrypts secrets stored at rest (webhook secrets, mailbox passwords). */
  secrets: SecretBox;
  /** What the workers report for the metrics (sends, bounces, replies, rounds); absent: nothing (observerOf). */
  observer?: Observer;
}

/** What a Ctx is made of before an actor is known (composition root, CLI, workers). */
export type ServiceDeps = Omit<Ctx, 'actor' | 'requestId'>;
