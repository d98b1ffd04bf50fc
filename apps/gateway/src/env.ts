import { z } from 'zod';

const intFromEnv = (fallback: number, min = 0) =>
  z.coerce.number().int().min(min).default(fallback);

/** Every setting the process reads, validated once at start. */
export const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: intFromEnv(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public base URL (links in e-mails, OpenAPI servers); defaults to http://localhost:PORT. */
  PUBLIC_URL: z.url().optional(),
  /** Embedded PGlite data directory, used when DATABASE_URL is not set. */
  DATA_DIR: z.string().default('./.data'),
  /** postgres://… switches from the embedded PGlite to PostgreSQL. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DB_POOL_SIZE: intFromEnv(10, 1),
  DB_ACQUIRE_TIMEOUT_MS: intFromEnv(10_000, 100),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Per-key token bucket: sustained requests per second and burst size. */
  RATE_LIMIT_PER_SECOND: intFromEnv(50, 1),
  RATE_LIMIT_BURST: intFromEnv(200, 1),
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
  /** Most sends one tick claims (each mailbox sends at most once per tick). */
  WORKER_BATCH: intFromEnv(100, 1),
  /** How often a mailbox is read for replies when its server has no IMAP IDLE, in ms. */
  IMAP_POLL_MS: intFromEnv(60_000, 1_000),
  /** Let webhooks reach private, loopback and link-local addresses (single-machine installs, tests). */
  ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /** How long a shutdown waits for in-flight requests before closing them, in ms. */
  SHUTDOWN_TIMEOUT_MS: intFromEnv(10_000, 0),
});
export type Env = z.infer<typeof Env>;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = Env.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid settings in the environment:\n${problems}`);
  }
  return parsed.data;
}
