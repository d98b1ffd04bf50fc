import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromZodError, toDomainError } from './errors';

const Shape = z.object({ name: z.string(), count: z.number(), nested: z.object({ on: z.boolean() }), tags: z.array(z.string()).max(1, 'must list at most 1 tag') });

describe('validation errors', () => {
  it('say "is required" only for missing fields, and the expected type otherwise, with the field path', () => {
    const missing = fromZodError(Shape.safeParse({}).error!);
    expect(missing.fieldErrors.map((f) => `${f.field} ${f.message}`)).toEqual(['name is required', 'count is required', 'nested is required', 'tags is required']);
    const wrong = fromZodError(Shape.safeParse({ name: 1, count: 'x', nested: { on: 'no' }, tags: ['a', 'b'] }).error!);
    expect(wrong.message).toBe('name must be a string; count must be a number; nested.on must be a boolean; tags must list at most 1 tag');
    expect(wrong.kind).toBe('invalid');
    expect(wrong.code).toBe('request.invalid');
  });

  it('keep a schema\'s own message', () => {
    const Custom = z.object({ list: z.array(z.string(), { error: (iss) => (iss.input === undefined ? 'is required' : 'must be a list of names') }) });
    expect(fromZodError(Custom.safeParse({}).error!).message).toBe('list is required');
    expect(fromZodError(Custom.safeParse({ list: 3 }).error!).message).toBe('list must be a list of names');
    expect(fromZodError(z.object({ xs: z.array(z.number()) }).safeParse({ xs: 'no' }).error!).message).toBe('xs must be an array');
  });

  it('name the field inside the union member the input was meant for', () => {
    const Item = z.object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date') });
    const OneOrList = z.object({ items: z.union([Item, z.array(Item).length(1, 'must list one item')]) });
    expect(fromZodError(OneOrList.safeParse({ items: [{ day: 'soon' }] }).error!).fieldErrors).toEqual([{ field: 'items.0.day', message: 'must be a date' }]);
    expect(fromZodError(OneOrList.safeParse({ items: { day: 'soon' } }).error!).fieldErrors).toEqual([{ field: 'items.day', message: 'must be a date' }]);
    expect(fromZodError(OneOrList.safeParse({ items: [] }).error!).fieldErrors).toEqual([{ field: 'items', message: 'must list one item' }]);
    // Neither member is meant (another type altogether): the union's own issue.
    expect(fromZodError(OneOrList.safeParse({ items: 3 }).error!).fieldErrors.map((f) => f.field)).toEqual(['items']);
  });

  it('classify unique violations as conflicts and leave unknown errors unclassified', () => {
    const conflict = toDomainError(Object.assign(new Error('dup'), { code: 'P2002', meta: { target: ['workspace_id', 'value'] } }));
    expect([conflict?.kind, conflict?.message]).toEqual(['conflict', 'already exists (workspace_id, value)']);
    expect(toDomainError(Object.assign(new Error('gone'), { code: 'P2025' }))?.kind).toBe('not_found');
    expect(toDomainError(new Error('boom'))).toBeNull();
  });
});
