import { createHash } from 'node:crypto';

/** How many times a statement's text is seen before it gets a name (a statement run once is not kept). */
export const NAME_AFTER = 3;
/** Most statements named: each connection keeps at most this many prepared. */
export const MAX_NAMED = 300;
/** Texts counted while waiting for a name; past this the count starts again (texts built at run time). */
const MAX_COUNTED = 5_000;
/** A run with a list parameter longer than this, or a text parameter longer than MAX_TEXT_ARG, goes unnamed. */
export const MAX_LIST_ARG = 100;
export const MAX_TEXT_ARG = 8_192;

/**
 * Whether a run's parameters are all small (see createStatementNamer); with `jsonTexts`, texts
 * of any length count as small (JSON documents: see prepared()).
 */
const smallArgs = (args: readonly unknown[] | undefined, jsonTexts: boolean) =>
  !args ||
  args.every((a) => (Array.isArray(a) ? a.length <= MAX_LIST_ARG : typeof a === 'string' ? jsonTexts || a.length <= MAX_TEXT_ARG : true));

/** What a statement's text starts with when it asks to be prepared (see prepared()). */
export const PREPARED_MARK = '/* prepared */ ';
/** The same, for a statement whose text parameters are JSON documents (prepared(sql, { jsonArgs: true })). */
export const PREPARED_JSON_MARK = '/* prepared, json */ ';

/**
 * A statement text marked to be kept prepared on PostgreSQL (createStatementNamer): for the
 * statements a worker runs on every round with parameters of one shape, whose best plan does not
 * depend on the values (the sending engine's). Anything else (lists, statistics, searches) stays
 * unmarked and is planned for its values on every run: a prepared statement may move to a plan
 * for any parameters after five runs, and on a skewed table that plan can be far slower
 * (a variation statistics query over a campaign with half the table's sends: 2.9 s against 0.8 s).
 *
 * `jsonArgs`: the statement's text parameters are JSON documents of rows (json_to_recordset), so
 * a long one does not keep it from being named (createStatementNamer). The planner cannot look
 * inside such a document (json_to_recordset is estimated at 100 rows whatever it holds): a plan
 * for its values is the plan for any, and planning it on every run is only waste. Recording a
 * batch of 10 sends (RECORD_SENTS_SQL, a JSON of about 25 KB) spent 1.2 ms planning against
 * 4.4 ms running (bench `send`, 10 mailboxes, pg_stat_statements).
 */
export function prepared(sql: string, options: { jsonArgs?: boolean } = {}): string {
  return (options.jsonArgs ? PREPARED_JSON_MARK : PREPARED_MARK) + sql;
}

/**
 * Names for the marked PostgreSQL statements (prepared()) the client runs again and again. A named statement is
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
 *
 * A run with a long list (or a long text: an array literal of rows, or a JSON document unless the
 * statement says its texts are JSON) among its parameters goes unnamed, planned for its values: a
 * plan for any parameters guesses a list's length, and the claim's read of 5,000 mailboxes
 * (CLAIM_MAILBOXES_SQL) ran 43 ms on such a plan against 33 ms planned for its list (bench
 * `headroom`, pg_stat_statements). Planning such a run costs little beside running it. The same
 * text may go named with short lists and unnamed with long ones.
 */
export function createStatementNamer(options: { after?: number; max?: number } = {}): (query: { sql: string; args?: readonly unknown[] }) => string | undefined {
  const after = options.after ?? NAME_AFTER;
  const max = options.max ?? MAX_NAMED;
  const named = new Map<string, string>();
  const counted = new Map<string, number>();
  return ({ sql, args }) => {
    const json = sql.startsWith(PREPARED_JSON_MARK);
    if ((!json && !sql.startsWith(PREPARED_MARK)) || !smallArgs(args, json)) return undefined;
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
