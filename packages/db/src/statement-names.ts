import { createHash } from 'node:crypto';

/** How many times a statement's text is seen before it gets a name (a statement run once is not kept). */
export const NAME_AFTER = 3;
/** Most statements named: each connection keeps at most this many prepared. */
export const MAX_NAMED = 300;
/** Texts counted while waiting for a name; past this the count starts again (texts built at run time). */
const MAX_COUNTED = 5_000;

/**
 * Names for the PostgreSQL statements the client runs again and again. A named statement is
 * parsed and planned once per connection and kept prepared (node-postgres), where an unnamed
 * one is parsed and planned on every run: planning was a third of PostgreSQL's time on the
 * sending engine's statements (bench `send`, pg_stat_statements with track_planning), several of
 * them 0.5–1.5 ms to plan and well under that to run. PostgreSQL keeps planning a prepared
 * statement for its parameters (a custom plan) unless a plan for any parameters costs about the
 * same (plan_cache_mode `auto`).
 *
 * A text gets its name (a digest of the text, so one text has one name on every connection) from
 * its NAME_AFTER-th run on, and no more than MAX_NAMED texts get one, so that texts built at run
 * time (a list of placeholders of varying length) cannot fill every connection with statements.
 */
export function createStatementNamer(options: { after?: number; max?: number } = {}): (query: { sql: string }) => string | undefined {
  const after = options.after ?? NAME_AFTER;
  const max = options.max ?? MAX_NAMED;
  const named = new Map<string, string>();
  const counted = new Map<string, number>();
  return ({ sql }) => {
    const name = named.get(sql);
    if (name !== undefined) return name;
    if (named.size >= max) return undefined;
    const seen = (counted.get(sql) ?? 0) + 1;
    if (seen < after) {
      if (counted.size >= MAX_COUNTED) counted.clear();
      counted.set(sql, seen);
      return undefined;
    }
    counted.delete(sql);
    const fresh = `s_${createHash('sha256').update(sql).digest('base64url').slice(0, 27)}`;
    named.set(sql, fresh);
    return fresh;
  };
}

/**
 * Whether a connection URL says the server is reached through PgBouncer in transaction mode
 * (`pgbouncer=true`, as Prisma spells it): statements prepared on one server connection would
 * be missing on the next, so none is named.
 */
export function behindPgBouncer(url: string): boolean {
  try {
    return new URL(url).searchParams.get('pgbouncer') === 'true';
  } catch {
    return false;
  }
}
