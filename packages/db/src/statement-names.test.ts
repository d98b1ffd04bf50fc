import { describe, expect, it } from 'vitest';
import { behindPgBouncer, createStatementNamer, MAX_LIST_ARG, MAX_TEXT_ARG, prepared } from './statement-names';

describe('statement names', () => {
  it('names a text from its third run on, the same name every time and on every namer', () => {
    const name = createStatementNamer();
    const q = { sql: prepared('SELECT $1::int') };
    expect([name(q), name(q)]).toEqual([undefined, undefined]);
    const third = name(q);
    expect(third).toMatch(/^s_[\w-]{27}$/);
    expect(name(q)).toBe(third);
    const other = createStatementNamer({ after: 1 });
    expect(other(q)).toBe(third);
    expect(other({ sql: prepared('SELECT $1::text') })).not.toBe(third);
  });

  it('names only texts marked prepared(): any other statement is planned for its values on every run', () => {
    const name = createStatementNamer({ after: 1 });
    const stats = { sql: 'SELECT variation_id, count(*) FROM sent_emails WHERE campaign_id = $1 GROUP BY 1' };
    expect([name(stats), name(stats), name(stats), name(stats)]).toEqual([undefined, undefined, undefined, undefined]);
    expect(name({ sql: prepared(stats.sql) })).toMatch(/^s_/);
  });

  it('names no more than `max` texts; those named keep their names', () => {
    const name = createStatementNamer({ after: 1, max: 2 });
    const a = name({ sql: prepared('SELECT 1') });
    const b = name({ sql: prepared('SELECT 2') });
    expect(a && b && a !== b).toBeTruthy();
    expect(name({ sql: prepared('SELECT 3') })).toBeUndefined();
    expect(name({ sql: prepared('SELECT 1') })).toBe(a);
  });

  it('leaves a run with a long list or a long text among its parameters unnamed, planned for its values', () => {
    const name = createStatementNamer({ after: 1 });
    const sql = prepared('SELECT * FROM unnest($1::text[]) AS t(id) JOIN email_accounts e ON e.id = t.id');
    const short = name({ sql, args: [['a', 'b']] });
    expect(short).toBeDefined();
    expect(name({ sql, args: [Array.from({ length: MAX_LIST_ARG + 1 }, (_, i) => `id${i}`)] })).toBeUndefined();
    expect(name({ sql, args: ['x'.repeat(MAX_TEXT_ARG + 1)] })).toBeUndefined();
    expect(name({ sql, args: [['c'], 42, null] })).toBe(short);
  });

  it('names a statement whose texts are JSON documents whatever their length; a long list still leaves it unnamed', () => {
    const name = createStatementNamer({ after: 1 });
    const sql = prepared('SELECT * FROM json_to_recordset($1::json) AS x(id text)', { jsonArgs: true });
    const rows = JSON.stringify(Array.from({ length: 1_000 }, (_, i) => ({ id: `id${i}` })));
    expect(rows.length).toBeGreaterThan(MAX_TEXT_ARG);
    const named = name({ sql, args: [rows] });
    expect(named).toMatch(/^s_/);
    expect(name({ sql, args: ['[]'] })).toBe(named);
    expect(name({ sql, args: [rows, Array.from({ length: MAX_LIST_ARG + 1 }, (_, i) => `id${i}`)] })).toBeUndefined();
    // The same text without the mark is another statement, and a long text keeps it unnamed.
    expect(name({ sql: prepared('SELECT * FROM json_to_recordset($1::json) AS x(id text)'), args: [rows] })).toBeUndefined();
  });

  it('reads pgbouncer=true in a connection URL, as Prisma does', () => {
    expect(behindPgBouncer('postgres://u:p@db:6432/outreach?pgbouncer=true')).toBe(true);
    expect(behindPgBouncer('postgres://u:p@db:5432/outreach?sslmode=require')).toBe(false);
    expect(behindPgBouncer('not a url')).toBe(false);
  });
});
