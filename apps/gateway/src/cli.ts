// outreach CLI: npm run cli -- <command>   (also the `outreach` bin of @outreach/gateway)
import { parseArgs } from 'node:util';
import { createOrganization, issueApiKey, revokeApiKey } from '@outreach/core';
import { isObjectId } from '@outreach/db';
import { EnvError, loadEnv } from './env';
import { claimDataDir, DataDirLockedError, tightenDataDir, type DataDirLock } from './data-dir';
import { createLogger } from './logger';
import { migrate, openDatabase } from './services';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  init --name <org> [--workspace <name>] [--lead-allowance <n>]
                          create an organization, its first workspace and an API key (printed once, as JSON)
  keys create --org <organization_id> [--name <label>] [--workspace <workspace_id>]
                          issue another API key (optionally limited to one workspace)
  keys list --org <organization_id>
                          list an organization's keys (prefix, name, state; never the key)
  keys revoke <key_id>    revoke a key; requests with it answer 401 from then on
  org set-allowance --org <organization_id> --lead-allowance <n|default>
                          set the organization's lead allowance (plan), or reset it to the default
  migrate                 apply pending database migrations

settings come from the environment: DATABASE_URL (PostgreSQL) or DATA_DIR (embedded PGlite, default ./.data);
with PGlite the CLI needs DATA_DIR to itself: it refuses while the server runs on it (use the API then)`;

class UsageError extends Error {}
/** Not a usage mistake, but nothing can be done now: one line, exit code 1. */
class RefusedError extends Error {}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

function needId(value: string | undefined, what: string): string {
  const id = need(value, what);
  if (!isObjectId(id)) throw new UsageError(`${what} must be a 24-character hex id`);
  return id;
}

function print(value: unknown) {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      workspace: { type: 'string' },
      org: { type: 'string' },
      'lead-allowance': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const known = ['init', 'keys', 'org', 'migrate'];
  if (!known.includes(command)) throw new UsageError(`unknown command: ${command}`);

  const env = loadEnv();
  // Logs go to stderr so that stdout stays parseable JSON.
  const log = createLogger({ level: env.LOG_LEVEL === 'info' ? 'warn' : env.LOG_LEVEL });
  // The embedded database is one process's: while the server holds DATA_DIR, what the CLI
  // wrote there would never reach it (and be lost), so the CLI refuses.
  let lock: DataDirLock | null = null;
  if (!env.DATABASE_URL) {
    try {
      lock = claimDataDir({ dataDir: env.DATA_DIR, kind: 'cli' });
    } catch (error) {
      if (!(error instanceof DataDirLockedError)) throw error;
      const advice = error.holder.kind === 'cli' ? 'wait for it to finish' : 'stop it or use the API';
      throw new RefusedError(`${error.message}; ${advice}`);
    }
  }
  let db: Awaited<ReturnType<typeof openDatabase>>;
  try {
    db = await openDatabase({ env, log });
  } catch (error) {
    lock?.release();
    throw error;
  }
  try {
    await migrate({ db, log });
    const prisma = db.prisma;
    if (command === 'migrate') {
      print({ status: 'success', migrations: 'applied' });
    } else if (command === 'init') {
      const allowance = values['lead-allowance'];
      if (allowance !== undefined && !/^\d+$/.test(allowance)) throw new UsageError('--lead-allowance must be a whole number');
      const created = await createOrganization({
        db: prisma,
        name: need(values.name, '--name <organization name>'),
        workspaceName: values.workspace,
        leadAllowance: allowance === undefined ? undefined : Number(allowance),
      });
      print({ organization_id: created.organizationId, workspace_id: created.workspaceId, api_key_id: created.apiKeyId, api_key: created.apiKey });
    } else if (command === 'keys' && sub === 'create') {
      const organizationId = needId(values.org, '--org <organization_id>');
      const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
      if (!org) throw new UsageError(`no organization ${organizationId}`);
      let workspaceId: string | undefined;
      if (values.workspace) {
        workspaceId = needId(values.workspace, '--workspace <workspace_id>');
        const ws = await prisma.workspace.findFirst({ where: { id: workspaceId, organizationId }, select: { id: true } });
        if (!ws) throw new UsageError(`workspace ${workspaceId} is not in organization ${organizationId}`);
      }
      const key = await issueApiKey({ db: prisma, organizationId, name: values.name, workspaceId });
      print({ api_key_id: key.id, api_key: key.apiKey, organization_id: organizationId, workspace_id: workspaceId ?? null });
    } else if (command === 'keys' && sub === 'list') {
      const organizationId = needId(values.org, '--org <organization_id>');
      const keys = await prisma.apiKey.findMany({
        where: { organizationId },
        orderBy: { createdAt: 'asc' },
        select: { id: true, name: true, keyPrefix: true, workspaceId: true, createdAt: true, revokedAt: true },
      });
      print(keys.map((k) => ({ api_key_id: k.id, name: k.name, prefix: k.keyPrefix, workspace_id: k.workspaceId, created_at: k.createdAt, revoked_at: k.revokedAt })));
    } else if (command === 'keys' && sub === 'revoke') {
      const keyId = needId(arg, '<key_id>');
      const revoked = await revokeApiKey({ db: prisma, keyId });
      if (!revoked) throw new UsageError(`no active key ${keyId}`);
      print({ status: 'success', revoked: keyId });
    } else if (command === 'org' && sub === 'set-allowance') {
      const organizationId = needId(values.org, '--org <organization_id>');
      const raw = need(values['lead-allowance'], '--lead-allowance <n|default>');
      if (raw !== 'default' && !/^\d+$/.test(raw)) throw new UsageError('--lead-allowance must be a whole number or "default"');
      const updated = await prisma.organization.updateMany({
        where: { id: organizationId },
        data: { leadAllowance: raw === 'default' ? null : Number(raw) },
      });
      if (!updated.count) throw new UsageError(`no organization ${organizationId}`);
      print({ status: 'success', organization_id: organizationId, lead_allowance: raw === 'default' ? null : Number(raw) });
    } else {
      throw new UsageError(`unknown command: ${positionals.join(' ')}`);
    }
    return 0;
  } finally {
    await db.close();
    try {
      // The embedded database sets the modes of some files it creates itself.
      if (lock) tightenDataDir(env.DATA_DIR);
    } finally {
      lock?.release();
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof EnvError || error instanceof RefusedError) {
      for (const line of error.message.split('\n')) process.stderr.write(`error: ${line}\n`);
      process.exit(1);
    }
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`error: ${(error as Error).message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    process.stderr.write(`error: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
