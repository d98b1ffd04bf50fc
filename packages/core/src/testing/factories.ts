import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import type { Database } from '@outreach/db';
import { createCaches, type Actor, type Ctx, type ServiceDeps } from '../shared/context';
import { systemClock, type Clock } from '../shared/ports';
import { createDnsResolver, type DnsResolver } from '../shared/dns';
import { createSecretBox } from '../shared/secret-box';
import { createMailVerifier, type MailVerifier } from '../shared/mail-verifier';
import { createMailSender, type MailSender } from '../shared/mail-sender';
import { createMailboxReader, type MailboxReader } from '../shared/mailbox-reader';
import { createWarmupMailbox } from '../shared/warmup-mailbox';
import { createWebhookHttp, type WebhookHttp } from '../shared/webhook-http';
import { createOAuthClient, type OAuthClient } from '../shared/oauth/oauth-client.service';
import type { InstallationSettingValues } from '../shared/oauth/oauth-settings';
import { installationOAuthConfig } from '../shared/installation-settings';
import { createOrganization } from '../workspace/index';

export const silentLogger = pino({ level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

export function testServiceDeps(options: { db: Database; clock?: Clock; dns?: DnsResolver; mail?: MailVerifier; defaultLeadAllowance?: number; publicUrl?: string; smtp?: MailSender; imap?: MailboxReader; webhookHttp?: WebhookHttp; allowPrivateTargets?: boolean; oauth?: OAuthClient; installation?: InstallationSettingValues }): ServiceDeps {
  // Tests talk to servers on loopback: private targets are allowed unless a test says otherwise.
  const allowPrivateTargets = options.allowPrivateTargets ?? true;
  const secrets = createSecretBox({ key: randomBytes(32) });
  return {
    db: options.db.prisma,
    ports: { clock: options.clock ?? systemClock, dns: options.dns ?? createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 }),
      mail: options.mail ?? createMailVerifier({ timeoutMs: 5_000, rejectUnauthorized: false, allowPrivateTargets }),
      smtp: options.smtp ?? createMailSender({ timeoutMs: 5_000, rejectUnauthorized: false, allowPrivateTargets }),
      imap: options.imap ?? createMailboxReader({ timeoutMs: 5_000, rejectUnauthorized: false, allowPrivateTargets }),
      warmupImap: createWarmupMailbox({ timeoutMs: 5_000, rejectUnauthorized: false, allowPrivateTargets }),
      webhookHttp: options.webhookHttp ?? createWebhookHttp({ allowPrivateTargets }),
      oauth:
        options.oauth ??
        createOAuthClient({ config: installationOAuthConfig({ db: options.db.prisma, secrets, env: options.installation }), allowInsecureHttp: allowPrivateTargets, clock: options.clock }),
    },
    log: silentLogger,
    settings: {
      defaultLeadAllowance: options.defaultLeadAllowance ?? 1_000_000,
      publicUrl: options.publicUrl ?? 'https://outreach.test',
      allowPrivateTargets,
      embeddedDatabase: options.db.kind === 'pglite',
      installation: options.installation,
    },
    caches: createCaches(),
    secrets,
  };
}

/** A fresh organization with one workspace and a key; every test makes its own. */
export async function createTestOrganization(options: { db: Database; name?: string; leadAllowance?: number }) {
  const created = await createOrganization({
    db: options.db.prisma,
    name: options.name ?? `test-org-${randomUUID().slice(0, 8)}`,
    leadAllowance: options.leadAllowance,
  });
  const actor: Actor = {
    organizationId: created.organizationId,
    apiKeyId: created.apiKeyId,
    workspaceIds: null,
    clientGrants: null,
  };
  return { ...created, actor };
}

export function testCtx(options: { deps: ServiceDeps; actor: Actor }): Ctx {
  return { ...options.deps, actor: options.actor, requestId: `test-${randomUUID()}` };
}
