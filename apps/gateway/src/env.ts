import { z } from 'zod';
import { databaseUrlProblem } from '@outreach/db';
import { DEFAULT_CLAIM_AHEAD_MS, IMAP_LOGINS_AT_ONCE, INSTALLATION_SETTINGS, INSTALLATION_SETTING_KEYS, READ_REFRESH_MS, type InstallationSettingKey, type InstallationSettingValues } from '@outreach/core';

/** An empty variable (`PORT=` in a compose file) counts as unset. */
const emptyAsUnset = (value: unknown) => (value === '' ? undefined : value);

const intFromEnv = (fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    emptyAsUnset,
    z.coerce
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );

/** http(s) with a host: what a recipient's browser and a webhook receiver can follow. */
function isHttpUrlWithHost(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/**
 * The installation settings (OAuth clients of Google and Microsoft, their mail servers, redirect
 * origins): optional here, each checked by its own rule; `outreach settings set` stores the same
 * names in the database, and a variable set here wins over the stored value.
 */
const installationSetting = (key: InstallationSettingKey) =>
  z.preprocess(
    emptyAsUnset,
    z
      .string()
      .trim()
      .superRefine((value, ctx) => {
        const problem = INSTALLATION_SETTINGS[key].problem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  );
const installationSettings = Object.fromEntries(INSTALLATION_SETTING_KEYS.map((key) => [key, installationSetting(key)])) as Record<
  InstallationSettingKey,
  ReturnType<typeof installationSetting>
>;

/** The installation settings the environment sets. */
export function installationSettingsOf(env: Env): InstallationSettingValues {
  const values: InstallationSettingValues = {};
  for (const key of INSTALLATION_SETTING_KEYS) {
    const value = env[key];
    if (value !== undefined) values[key] = value;
  }
  return values;
}

/** Every setting the process reads, validated once at start. */
export const Env = z.object({
  ...installationSettings,
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: intFromEnv(3000, 0, 65_535),
  HOST: z.string().default('0.0.0.0'),
  /** Public base URL (links in e-mails, OpenAPI servers); defaults to http://localhost:PORT. */
  PUBLIC_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .trim()
      .refine(isHttpUrlWithHost, { error: 'must be an http:// or https:// URL with a host, e.g. https://outreach.example.com' })
      .optional(),
  ),
  /** Embedded PGlite data directory, used when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('./.data'),
  /** postgres://… switches from the embedded PGlite to PostgreSQL. */
  DATABASE_URL: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .superRefine((url, ctx) => {
        const problem = databaseUrlProblem(url);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
  ),
  DB_POOL_SIZE: intFromEnv(10, 1),
  DB_ACQUIRE_TIMEOUT_MS: intFromEnv(10_000, 100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Per-key token bucket: sustained requests per second and burst size. */
  RATE_LIMIT_PER_SECOND: intFromEnv(50, 1),
  RATE_LIMIT_BURST: intFromEnv(200, 1),
  /**
   * Failed authentications per client address (unknown or revoked keys): a bucket of
   * AUTH_FAILURE_BURST failures refilling AUTH_FAILURES_PER_MINUTE; an address that has
   * spent it gets 429 for keys that would need a database lookup (docs/api.md).
   */
  AUTH_FAILURE_BURST: intFromEnv(20, 1),
  AUTH_FAILURES_PER_MINUTE: intFromEnv(60, 1),
  /** GraphQL introspection (`__schema`, `__type`); unset: on except when NODE_ENV=production. */
  GRAPHQL_INTROSPECTION: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false']).optional()),
  /** GraphiQL on GET /graphql (from a browser), its assets served by us; unset: on only when NODE_ENV=development. */
  GRAPHIQL: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['true', 'false']).optional()),
  /** Lead allowance for organizations without their own (plan allowance). */
  DEFAULT_LEAD_ALLOWANCE: intFromEnv(1_000_000, 0),
  /** DNS servers for domain checks (comma-separated host or host:port); empty: the system's. */
  DNS_SERVERS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean)),
  DNS_TIMEOUT_MS: intFromEnv(3_000, 100),
  /**
   * 32 bytes, base64 or hex, that encrypt secrets at rest. When unset, a key file is
   * created once under DATA_DIR (encryption.key, mode 0600); back it up with the data.
   */
  ENCRYPTION_KEY: z.string().optional(),
  /** A file holding ENCRYPTION_KEY instead (a container secret such as /run/secrets/encryption_key); never created. */
  ENCRYPTION_KEY_FILE: z.preprocess((v) => (v === '' ? undefined : v), z.string().optional()),
  /** Reject mail servers whose TLS certificate does not verify (set false for self-signed test servers). */
  MAIL_TLS_REJECT_UNAUTHORIZED: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /**
   * What this process runs: `all` (HTTP API and the sending worker, the default), `api`
   * (HTTP only) or `worker` (the sending worker only, no HTTP). Several workers may share
   * one PostgreSQL database; with PGlite run a single process.
   */
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  /** Pause between two scheduler ticks when nothing more is due, in ms. */
  WORKER_INTERVAL_MS: intFromEnv(5_000, 100),
  /** Most sends one tick claims. */
  WORKER_BATCH: intFromEnv(100, 1),
  /**
   * How far ahead a tick claims a mailbox's later sends, in ms: a mailbox takes, besides the send it
   * may make now, those that may follow within this time, each once the pause after the one before
   * (its sending gap and jitter) ends, within the campaign's window and day. Fewer ticks do the same
   * sends (each tick's statements shared by more of them). 0: one send per mailbox a tick. A pause
   * or a disconnection stops the sends not yet begun; a stopping worker hands them back.
   */
  SEND_AHEAD_MS: intFromEnv(DEFAULT_CLAIM_AHEAD_MS, 0),
  /**
   * How long a claimed send holds its lead, in ms: the lead of a worker that died mid-send (kill -9)
   * is due again after this. Keep it above a send's longest duration (SMTP timeouts are 30 s): a slow
   * send taken over is cut off and redone, or recorded with outcome unknown, by the other worker.
   */
  SEND_LEASE_MS: intFromEnv(300_000, 1_000),
  /** How often at most a mailbox is read for replies when nothing arrives, in ms (each wait a random 80–100 % of it; with IMAP IDLE, new mail is read at once). */
  IMAP_POLL_MS: intFromEnv(60_000, 1_000),
  /**
   * How often a worker renews its share of the mailboxes to read (they are divided among the workers),
   * in ms: a worker that joins gets its share within two of these, one that dies is taken over after
   * four (docs/operations.md, "Scaling workers").
   */
  IMAP_REFRESH_MS: intFromEnv(READ_REFRESH_MS, 100),
  /**
   * IMAP logins a worker has under way at once at most: its reading loops start together, and a
   * server greets only so many new connections at a time (docs/operations.md, "Sizing").
   */
  IMAP_LOGIN_CONCURRENCY: intFromEnv(IMAP_LOGINS_AT_ONCE, 1),
  /** How often the warmup worker runs a round (sends, scans, health snapshots), in ms. */
  WARMUP_INTERVAL_MS: intFromEnv(30_000, 1_000),
  /**
   * The installation's shared warmup pool: organizations that opted in (organizations.warmup_shared_pool)
   * warm each other's mailboxes too. Off: each organization's mailboxes warm each other only.
   */
  WARMUP_SHARED_POOL: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** Let webhooks and mailbox SMTP/IMAP hosts reach private, loopback and link-local addresses (single-machine installs, tests). */
  ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** How long a shutdown waits for in-flight requests before closing them, in ms. */
  SHUTDOWN_TIMEOUT_MS: intFromEnv(10_000, 0),
  /**
   * The bearer token of GET /metrics (Prometheus). Unset: no metrics, and /metrics answers 404 as
   * any unknown path. Set: scrapes send `Authorization: Bearer <token>`, anything else gets 401.
   */
  METRICS_TOKEN: z.preprocess(
    emptyAsUnset,
    z
      .string()
      .min(16, { error: 'must be at least 16 characters (e.g. openssl rand -hex 32)' })
      .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces (it travels in an HTTP header)' })
      .optional(),
  ),
  /** Where a ROLE=worker process serves /metrics (on HOST) when METRICS_TOKEN is set; the API roles serve it on PORT. */
  METRICS_PORT: intFromEnv(9464, 0, 65_535),
});
export type Env = z.infer<typeof Env>;

/** Whether GraphQL answers introspection: GRAPHQL_INTROSPECTION, by default off in production only. */
export function graphqlIntrospectionEnabled(env: Pick<Env, 'GRAPHQL_INTROSPECTION' | 'NODE_ENV'>): boolean {
  return env.GRAPHQL_INTROSPECTION === undefined ? env.NODE_ENV !== 'production' : env.GRAPHQL_INTROSPECTION === 'true';
}

/** Whether GET /graphql from a browser answers GraphiQL: GRAPHIQL, by default in development only. */
export function graphiqlEnabled(env: Pick<Env, 'GRAPHIQL' | 'NODE_ENV'>): boolean {
  return env.GRAPHIQL === undefined ? env.NODE_ENV === 'development' : env.GRAPHIQL === 'true';
}

/** Settings whose value is never repeated in an error (credentials). */
const SECRET_SETTINGS = new Set<string>(['DATABASE_URL', 'ENCRYPTION_KEY', 'METRICS_TOKEN', ...INSTALLATION_SETTING_KEYS.filter((key) => INSTALLATION_SETTINGS[key].secret)]);

/** Invalid settings: one line per problem, naming the variable and what is wrong with its value. */
export class EnvError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'EnvError';
  }
}

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.map(String).join('.');
      const value = source[name];
      const shown = value === undefined || SECRET_SETTINGS.has(name) ? '' : `=${JSON.stringify(value)}`;
      return `invalid setting ${name}${shown}: ${issue.message.replace(/\s*\n\s*/g, ' ')}`;
    });
    throw new EnvError(problems);
  }
  return parsed.data;
}
