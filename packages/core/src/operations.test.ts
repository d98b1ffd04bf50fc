import { describe, expect, it } from 'vitest';
import { operations } from './operations';
import { fromZodError } from './shared/errors';

const all = Object.values(operations).flatMap((domain) => Object.values(domain));

/** The field errors every transport answers for `input` (REST and GraphQL through executeOperation, tRPC through its error formatter). */
function fieldErrors(op: (typeof all)[number], input: Record<string, unknown>) {
  const parsed = op.input.safeParse(input);
  return parsed.success ? [] : fromZodError(parsed.error).fieldErrors;
}

describe('the input errors of every operation', () => {
  it('call a required field left out "is required", whatever its type', () => {
    const wrong: string[] = [];
    const required = new Set<string>();
    for (const op of all) {
      for (const { field, message } of fieldErrors(op, {})) {
        required.add(`${op.name} ${field}`);
        if (message !== 'is required') wrong.push(`${op.name}: ${field} ${message}`);
      }
    }
    expect(wrong).toEqual([]);
    // Dates, enums, flags, lists and texts among them (a check that reached only a few would pass).
    for (const field of ['campaign.statsAll start_date', 'campaign.delete is_archive', 'campaign.bulkAssignTags action', 'lead.delete delete_list', 'unibox.compose subject', 'people.changeRole role']) {
      expect(required).toContain(field);
    }
  });

  it('say what a required field given with the wrong type must be', () => {
    const wrong: string[] = [];
    for (const op of all) {
      for (const { field } of fieldErrors(op, {})) {
        const given = fieldErrors(op, { [field]: { not: 'this' } }).find((e) => e.field === field);
        if (given && !given.message.startsWith('must ')) wrong.push(`${op.name}: ${field} ${given.message}`);
      }
    }
    expect(wrong).toEqual([]);
    const statsAll = operations.campaign.statsAll;
    expect(fieldErrors(statsAll, { workspace_id: 'a'.repeat(24), start_date: '2026-1-5' })).toContainEqual({ field: 'start_date', message: 'must be a date in YYYY-MM-DD format' });
    expect(fieldErrors(operations.campaign.delete, { is_archive: 'maybe' }).find((e) => e.field === 'is_archive')?.message).toMatch(/^must be true or false/);
  });
});
