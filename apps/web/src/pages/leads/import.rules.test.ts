import { describe, expect, it } from 'vitest';
import { guessMapping, leadOfRow, mappingProblem, planChunks, rowRanges } from './import.rules';

describe('the columns of a CSV file', () => {
  it('are guessed from their headers, and the rest become custom variables by name', () => {
    expect(guessMapping(['E-mail', 'First Name', 'company', 'LinkedIn', 'Industry Segment', 'custom_tier', '  '])).toEqual([
      { kind: 'field', field: 'email' },
      { kind: 'field', field: 'firstName' },
      { kind: 'field', field: 'companyName' },
      { kind: 'field', field: 'networkPersonUrl' },
      { kind: 'variable', name: 'industry_segment' },
      { kind: 'variable', name: 'tier' },
      { kind: 'ignore' },
    ]);
    // A field is guessed once: the second "email" column is a variable.
    expect(guessMapping(['email', 'Email'])[1]).toEqual({ kind: 'variable', name: 'email' });
  });

  it('need an e-mail column, and each field once', () => {
    expect(mappingProblem([{ kind: 'field', field: 'firstName' }])).toMatch(/e-mail/);
    expect(mappingProblem([{ kind: 'field', field: 'email' }, { kind: 'field', field: 'city' }, { kind: 'field', field: 'city' }])).toMatch(/City is chosen for two columns/);
    expect(mappingProblem([{ kind: 'field', field: 'email' }, { kind: 'ignore' }])).toBeNull();
  });

  it('make a lead of each row, leaving out empty cells and ignored columns', () => {
    const mapping = guessMapping(['email', 'first_name', 'tier', 'notes']);
    mapping[3] = { kind: 'ignore' };
    expect(leadOfRow([' ada@example.com ', '', 'gold', 'secret'], mapping)).toEqual({ email: 'ada@example.com', customVariables: { tier: 'gold' } });
    expect(leadOfRow(['', 'Ada'], mapping)).toEqual({ email: '', firstName: 'Ada' });
  });
});

describe('the chunks of an upload', () => {
  it('follow the file, a repeated address joining the chunk of its first occurrence', () => {
    const emails = ['a@x.test', 'b@x.test', 'c@x.test', 'A@X.test ', 'd@x.test', '', '', 'b@x.test'];
    expect(planChunks(emails, 2)).toEqual([[0, 1, 3, 7], [2, 4], [5, 6]]);
    expect(planChunks([], 250)).toEqual([]);
  });

  it('name the rows left as a spreadsheet numbers them', () => {
    expect(rowRanges([500, 501, 502, 3, 999])).toBe('5, 502–504, 1,001');
  });
});
