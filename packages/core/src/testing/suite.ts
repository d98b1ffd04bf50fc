// The set-up integration test files share: the suite's database, provided by a beforeAll hook,
// and a fresh tenant (organization, workspace, key, service deps and a ctx acting as its key).
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '@outreach/db';
import { testDatabase } from './database';
import { createTestOrganization, testCtx, testServiceDeps } from './factories';
import { imapServerUnavailable, startImapServer, type ImapTestServer } from './imap-server';
import { startSmtpServer, type SmtpTestServer } from './smtp-server';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * A stand-in for an object that a beforeAll hook provides: `value` can be held (and destructured
 * from a helper's result) at the top of a test file and forwards every use to the object given to
 * `set`, so tests read `db.prisma` or `server.rest(...)` (and assign its properties) as if it were a plain variable. Using it
 * before the hook has run throws, naming `what`.
 */
export function lateValue<T extends object>(what: string): { value: T; set(value: T): void } {
  let current: T | undefined;
  const target = (): T => {
    if (current === undefined) throw new Error(`${what} is not ready: it is set by a beforeAll hook, so use it inside hooks and tests`);
    return current;
  };
  const value = new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    set: (_, key, v) => Reflect.set(target(), key, v),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // The proxy's own target is an empty extensible object: report the property as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return { value, set: (v) => void (current = v) };
}

/** The suite's database (see testDatabase), for the tests of this file; replaces `let db; beforeAll(...)`. */
export function useTestDatabase(): Database {
  const db = lateValue<Database>('the test database');
  beforeAll(async () => db.set(await testDatabase()));
  return db.value;
}

/** A real SMTP server on loopback taking these logins, for the tests of this file, closed after them. */
export function useSmtpServer(users: Record<string, string>): SmtpTestServer {
  const server = lateValue<SmtpTestServer>('the SMTP test server');
  let started: SmtpTestServer | null = null;
  beforeAll(async () => server.set((started = await startSmtpServer({ users }))), 30_000);
  afterAll(async () => {
    await started?.close();
  });
  return server.value;
}

/**
 * Dovecot on loopback taking these logins (startImapServer), for the tests of this file, stopped after
 * them; not started where Dovecot is missing (imapServerUnavailable: the file skips its IMAP tests).
 */
export function useImapServer(users: Record<string, string>): ImapTestServer {
  const server = lateValue<ImapTestServer>('the IMAP test server');
  let started: ImapTestServer | null = null;
  beforeAll(async () => {
    if (!imapServerUnavailable()) server.set((started = await startImapServer({ users })));
  }, 30_000);
  afterAll(async () => {
    await started?.close();
  });
  return server.value;
}

/** A webhook receiver on loopback (startWebhookReceiver) for the tests of this file, closed after them. */
export function useWebhookReceiver(): WebhookReceiver {
  const receiver = lateValue<WebhookReceiver>('the webhook receiver');
  let started: WebhookReceiver | null = null;
  beforeAll(async () => receiver.set((started = await startWebhookReceiver())));
  afterAll(async () => {
    await started?.close();
  });
  return receiver.value;
}
type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/**
 * A fresh organization (one workspace, one key) with the service deps and a ctx acting as its key:
 * what most integration tests start from. `base` is what the row factories (createTestCampaign, …) take.
 */
export async function createTestTenant(options: { db: Database; leadAllowance?: number } & Omit<Parameters<typeof testServiceDeps>[0], 'db'>) {
  const { db, leadAllowance, ...depsOptions } = options;
  const org = await createTestOrganization({ db, leadAllowance });
  const deps = testServiceDeps({ db, ...depsOptions });
  const ctx = testCtx({ deps, actor: org.actor });
  const base = { db: db.prisma, organizationId: org.organizationId, workspaceId: org.workspaceId };
  return { org, deps, ctx, ws: org.workspaceId, base };
}
export type TestTenant = Awaited<ReturnType<typeof createTestTenant>>;
export type TestOrganization = Awaited<ReturnType<typeof createTestOrganization>>;
