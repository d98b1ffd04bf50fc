import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findMalformedText, textProblemOf } from './input-text.rules';
import { defineOperation, executeOperation } from './operation';
import { DomainError } from './errors';
import type { Ctx } from './context';

describe('the input text rule', () => {
  it('accepts ordinary text, emoji (surrogate pairs) and non-string values', () => {
    expect(textProblemOf('Grüße 👋 — ok')).toBeNull();
    expect(findMalformedText({ a: 'x', b: [1, true, null, { c: '😀' }], d: 3 })).toBeNull();
    expect(findMalformedText(undefined)).toBeNull();
  });

  it('names the first field holding a NUL or a lone surrogate, with the dotted path of field errors', () => {
    expect(findMalformedText({ name: 'a\u0000b' })).toEqual({ field: 'name', message: 'must not contain a NUL character (\\u0000)' });
    expect(findMalformedText({ ok: 'x', leads: [{ email: 'a@b.c' }, { email: 'x', vars: { city: 'Par\ud800is' } }] })).toEqual({
      field: 'leads.1.vars.city',
      message: 'must not contain a lone UTF-16 surrogate (not valid Unicode text)',
    });
    expect(findMalformedText({ first: '\udc00', second: '\u0000' })?.field).toBe('first');
    expect(findMalformedText({ schedule: { days: ['\u0000'] }, timezone: '\u0000' })?.field).toBe('schedule.days.0');
    expect(findMalformedText(['\u0000'])?.field).toBe('0');
    expect(findMalformedText('\u0000')?.field).toBe('(body)');
  });

  it('checks object keys too, printing them escaped', () => {
    expect(findMalformedText({ custom: { 'bad\u0000key': 'v' } })).toEqual({
      field: 'custom.bad\\u0000key',
      message: 'is a field name that must not contain a NUL character (\\u0000)',
    });
  });

  it('walks deeply nested input without overflowing the stack', () => {
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 50_000; i += 1) deep = [deep];
    expect(findMalformedText(deep)?.message).toMatch(/NUL/);
  });

  it('is applied by executeOperation before the schema, for every operation', async () => {
    let ran = false;
    const op = defineOperation({
      name: 'test.echo',
      kind: 'mutation',
      summary: 'echo',
      input: z.object({ subject: z.string(), tags: z.array(z.string()).optional() }),
      output: z.object({}),
      workspace: 'none',
      run: async () => {
        ran = true;
        return {};
      },
    });
    const ctx = { log: { debug() {} } } as unknown as Ctx;
    const error = await executeOperation({ op, ctx, input: { subject: 'Hi\u0000there', tags: ['x'] } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ kind: 'invalid', message: 'subject must not contain a NUL character (\\u0000)', fieldErrors: [{ field: 'subject' }] });
    await expect(executeOperation({ op, ctx, input: { subject: 'ok', tags: ['\ud83d'] } })).rejects.toMatchObject({ fieldErrors: [{ field: 'tags.0' }] });
    expect(ran).toBe(false);
  });
});
