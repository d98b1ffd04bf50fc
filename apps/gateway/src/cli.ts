// outreach CLI: npm run cli -- <command>   (also the `outreach` bin of @outreach/gateway)
import { parseArgs } from 'node:util';
import {
  checkEncryptionKey,
  createOrganization,
  createPartnerKey,
  createSetupLink,
  createSecretBox,
  EncryptionKeyMismatchError,
  describeInstallationSettings,
  installationSettingProblem,
  isInstallationSettingKey,
  issueApiKey,
  removeInstallationSetting,
  revokeApiKey,
  deleteOrganization,
  storeInstallationSetting,
} from '@outreach/core';
import { isObjectId } from '@outreach/db';
import { EnvError, installationSettingsOf, loadEnv } from './env';
import { claimDataDir, DataDirLockedError, tightenDataDir, type DataDirLock } from './data-dir';
import { createLogger } from './logger';
import { listOrganizations, setWarmupSharedPool } from './cli-org';
import { loadEncryptionKey, migrate, openDatabase, publicUrlOf } from './services';
import { PRODUCT_VERSION } from './version';

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  init --name <org> [--workspace <name>] [--lead-allowance <n>]
                          create an organization, its first workspace and an API key (printed once, as JSON)
  keys create --org <organization_id> [--name <label>] [--workspace <workspace_id>]
                          issue another API key (optionally limited to one workspace)
  keys create --partner --org <organization_id> --name <provider> [--workspace <workspace_id> ...]
                          issue an email-infrastructure partner's key: only the partner operations, in the
                          workspaces that grant it (each --workspace grants one; more with POST /partner/grants)
  keys list --org <organization_id>
                          list an organization's keys (prefix, name, state; never the key)
  keys revoke <key_id>    revoke a key; requests with it answer 401 from then on
  org set-allowance --org <organization_id> --lead-allowance <n|default>
                          set the organization's lead allowance (plan), or reset it to the default
  org set-warmup-pool --org <organization_id> --shared <on|off>
                          opt the organization in to (or out of) the installation's shared warmup pool, which
                          WARMUP_SHARED_POOL=true turns on; prints the new state
  org list                every organization: workspaces, lead allowance, shared warmup pool opt-in
  org delete <organization_id>
                          delete an organization with everything in it: at once its keys and sessions stop
                          working; the worker role removes its data in the background
  people setup-link [--org <organization_id>]
                          print a one-time link (7 days) that creates an owner in the web app: of a new
                          organization, or with --org of that one (e.g. made with init); PUBLIC_URL is its base
  people list [--org <organization_id>]
                          the people who sign in to the web app: e-mail, name, role, organization
  migrate                 apply pending database migrations
  version, --version      print the version
  settings get [<KEY>]    the installation settings (OAuth clients of Google and Microsoft, …): where each
                          value comes from (environment, stored, unset) and the value unless it is secret
  settings set <KEY> <value|->
                          store a setting, encrypted with the installation's key (- reads the value from stdin,
                          so a secret stays out of the shell history); a variable of the same name wins over it
  settings unset <KEY>    remove a stored setting

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

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
      workspace: { type: 'string', multiple: true },
      partner: { type: 'boolean' },
      org: { type: 'string' },
      'lead-allowance': { type: 'string' },
      shared: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  const [command, sub, arg, value] = positionals;
  if (values.version || command === 'version') {
    process.stdout.write(`outreach ${PRODUCT_VERSION}\n`);
    return 0;
  }
  if (values.help || !command) {
    process.stdout.write(`${USAGE}\n`);
    return command || values.help ? 0 : 2;
  }
  const known = ['init', 'keys', 'org', 'migrate', 'settings', 'people'];
  if (!known.includes(command)) throw new UsageError(`unknown command: ${command}`);

  if (command === 'settings' && sub === 'set' && arg && value !== undefined && value !== '-') {
    // A bad key or value is refused before the database is opened.
    const problem = installationSettingProblem(arg.toUpperCase(), value.trim());
    if (problem) throw new RefusedError(problem);
  }
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
      if ((values.workspace?.length ?? 0) > 1) throw new UsageError('--workspace <name> may be given once');
      const created = await createOrganization({
        db: prisma,
        name: need(values.name, '--name <organization name>'),
        workspaceName: values.workspace?.[0],
        leadAllowance: allowance === undefined ? undefined : Number(allowance),
      });
      print({ organization_id: created.organizationId, workspace_id: created.workspaceId, api_key_id: created.apiKeyId, api_key: created.apiKey });
    } else if (command === 'keys' && sub === 'create') {
      const organizationId = needId(values.org, '--org <organization_id>');
      const org = await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } });
      if (!org) throw new UsageError(`no organization ${organizationId}`);
      const workspaces = (values.workspace ?? []).map((w) => needId(w, '--workspace <workspace_id>'));
      if (values.partner) {
        const name = need(values.name?.trim(), '--name <provider> (the partner\'s name)');
        const known = await prisma.workspace.findMany({ where: { id: { in: workspaces }, organizationId }, select: { id: true } });
        const stranger = workspaces.find((id) => !known.some((w) => w.id === id));
        if (stranger) throw new UsageError(`workspace ${stranger} is not in organization ${organizationId}`);
        const key = await createPartnerKey({ db: prisma, organizationId, name, workspaceIds: workspaces });
        print({ api_key_id: key.id, api_key: key.apiKey, organization_id: organizationId, partner_name: key.name, workspace_ids: key.workspaceIds });
        return 0;
      }
      if (workspaces.length > 1) throw new UsageError('--workspace may be given once (a key limited to one workspace), or repeated with --partner');
      let workspaceId: string | undefined;
      if (workspaces[0]) {
        workspaceId = workspaces[0];
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
        select: { id: true, name: true, keyPrefix: true, workspaceId: true, partnerName: true, partnerGrants: { select: { workspaceId: true }, orderBy: { workspaceId: 'asc' } }, createdAt: true, lastUsedAt: true, revokedAt: true },
      });
      print(
        keys.map((k) => ({
          api_key_id: k.id,
          name: k.name,
          prefix: k.keyPrefix,
          workspace_id: k.workspaceId,
          ...(k.partnerName !== null ? { partner_name: k.partnerName, workspace_ids: k.partnerGrants.map((g) => g.workspaceId) } : {}),
          created_at: k.createdAt,
          last_used_at: k.lastUsedAt,
          revoked_at: k.revokedAt,
        })),
      );
    } else if (command === 'keys' && sub === 'revoke') {
      const keyId = needId(arg, '<key_id>');
      const revoked = await revokeApiKey({ db: prisma, keyId });
      if (!revoked) throw new UsageError(`no active key ${keyId}`);
      print({ status: 'success', revoked: keyId });
    } else if (command === 'settings' && (sub === 'get' || sub === 'set' || sub === 'unset')) {
      const secrets = createSecretBox({ key: loadEncryptionKey(env) });
      // A value stored with another key than the server's could never be read back.
      try {
        await checkEncryptionKey({ db: prisma, secrets });
      } catch (error) {
        if (error instanceof EncryptionKeyMismatchError) throw new RefusedError(error.message);
        throw error;
      }
      const fromEnv = installationSettingsOf(env);
      if (sub === 'get') {
        const states = await describeInstallationSettings({ db: prisma, secrets, env: fromEnv });
        const key = arg?.toUpperCase();
        if (key && !states.some((s) => s.key === key)) throw new UsageError(`unknown setting ${arg}`);
        print(states.filter((s) => !key || s.key === key).map((s) => ({ key: s.key, source: s.source, ...(s.value !== undefined ? { value: s.value } : {}), ...(s.secret ? { secret: true } : {}), ...(s.overridden ? { overridden_by_environment: true } : {}), description: s.description })));
      } else if (sub === 'set') {
        const key = need(arg, '<KEY>').toUpperCase();
        let given = need(value, '<value> (or - to read it from stdin)');
        if (given === '-') given = (await readStdin()).replace(/\r?\n$/, '');
        const problem = installationSettingProblem(key, given.trim());
        if (problem) throw new RefusedError(problem);
        await storeInstallationSetting({ db: prisma, secrets, key, value: given });
        print({ status: 'success', key, stored: true, ...(fromEnv[key as keyof typeof fromEnv] !== undefined ? { overridden_by_environment: true } : {}) });
      } else {
        const key = need(arg, '<KEY>').toUpperCase();
        if (!isInstallationSettingKey(key)) throw new UsageError(`unknown setting ${arg}`);
        print({ status: 'success', key, removed: await removeInstallationSetting({ db: prisma, key }) });
      }
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
    } else if (command === 'org' && sub === 'set-warmup-pool') {
      const organizationId = needId(values.org, '--org <organization_id>');
      const shared = need(values.shared, '--shared <on|off>');
      if (shared !== 'on' && shared !== 'off') throw new UsageError('--shared must be on or off');
      const state = await setWarmupSharedPool({ db: prisma, organizationId, shared: shared === 'on', installationSharedPool: env.WARMUP_SHARED_POOL });
      if (!state) throw new UsageError(`no organization ${organizationId}`);
      print({ status: 'success', ...state });
    } else if (command === 'org' && sub === 'delete') {
      // Answers at once; the worker role purges the organization's rows in the background.
      const organizationId = needId(arg, '<organization_id>');
      if (!(await deleteOrganization({ db: prisma, organizationId, now: new Date() }))) throw new UsageError(`no organization ${organizationId}`);
      print({ status: 'success', organization_id: organizationId, deleted: true, note: 'its keys and sessions no longer work; the worker role removes its data in the background' });
    } else if (command === 'org' && sub === 'list') {
      print(await listOrganizations({ db: prisma }));
    } else if (command === 'people' && sub === 'setup-link') {
      const organizationId = values.org === undefined ? null : needId(values.org, '--org <organization_id>');
      if (organizationId && !(await prisma.organization.findUnique({ where: { id: organizationId }, select: { id: true } }))) {
        throw new UsageError(`no organization ${organizationId}`);
      }
      const setup = await createSetupLink({ db: prisma, publicUrl: publicUrlOf(env), organizationId });
      print({ setup_link: setup.link, organization_id: setup.organizationId, expires_at: setup.expiresAt });
    } else if (command === 'people' && sub === 'list') {
      const organizationId = values.org === undefined ? undefined : needId(values.org, '--org <organization_id>');
      const people = await prisma.user.findMany({
        where: organizationId ? { organizationId } : {},
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: { id: true, email: true, name: true, role: true, organizationId: true, createdAt: true, _count: { select: { sessions: true } } },
      });
      print(people.map((p) => ({ id: p.id, email: p.email, name: p.name, role: p.role, organization_id: p.organizationId, created_at: p.createdAt, sessions: p._count.sessions })));
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
