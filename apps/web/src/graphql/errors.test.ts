import { describe, expect, it } from 'vitest';
import { CombinedError } from 'urql';
import { claimsAll, fieldProblem, problemOf } from './errors';

const domainError = (fields: { field: string; message: string }[]) =>
  new CombinedError({
    graphQLErrors: [{ message: fields.map((f) => `${f.field} ${f.message}`).join('; '), extensions: { code: 'BAD_USER_INPUT', errors: fields } }],
  });

describe('GraphQL errors in words, next to their fields', () => {
  it("finds a field's problem by its GraphQL or core name", () => {
    const problem = problemOf(domainError([{ field: 'daily_limit', message: 'must be at least 1' }]));
    expect(fieldProblem(problem, 'dailyLimit')).toBe('Must be at least 1');
    expect(fieldProblem(problem, 'email')).toBeUndefined();
    expect(problem?.code).toBe('BAD_USER_INPUT');
  });

  it('finds the problem of a nested field of the sequence', () => {
    const problem = problemOf(domainError([{ field: 'sequences.1.variations.0.subject', message: 'must be at most 1000 characters' }]));
    expect(fieldProblem(problem, 'sequences.1.variations.0.subject')).toBe('Must be at most 1000 characters');
    expect(claimsAll(problem, [], ['sequences.'])).toBe(true);
    expect(problem?.message).toBe('Step 2, variation 1, subject: must be at most 1000 characters');
  });

  it('leaves to the alert a problem no input of the form shows', () => {
    const problem = problemOf(domainError([{ field: 'email_accounts', message: 'needs at least one email account' }]));
    expect(claimsAll(problem, ['daily_limit'])).toBe(false);
    expect(problem?.message).toBe('Email accounts: needs at least one email account');
  });

  it('says so when the server cannot be reached', () => {
    const problem = problemOf(new CombinedError({ networkError: new TypeError('Failed to fetch') }));
    expect(problem?.message).toMatch(/could not be reached/);
    expect(problem?.fields).toEqual([]);
  });

  it('answers nothing for a request that did not fail', () => {
    expect(problemOf(undefined)).toBeUndefined();
  });
});
