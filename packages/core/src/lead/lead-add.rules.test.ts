import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createUploadPlanner, isValidEmail, planLeadUpload } from './lead-add.rules';
import { LeadObject } from './lead-add.schemas';

describe('lead upload planning', () => {
  it('plans a request given a slice at a time exactly as in one piece (a repeat in a later slice is a duplicate)', () => {
    const leads = z.array(LeadObject).parse([
      { email: 'a@example.com', first_name: 'A' },
      { email: 'broken' },
      { email: 'b@example.com', tier: 'gold' },
      { email: 'A@Example.com', first_name: 'Second' },
      { email: 'c@example.com' },
      { email: 'b@example.com' },
    ]);
    const planner = createUploadPlanner();
    const perSlice = [leads.slice(0, 2), leads.slice(2, 3), leads.slice(3)].map((slice) => planner.add(slice).map((l) => l.emailNormalized));
    const sliced = planner.plan();
    // Each slice gives back what it added: the repeats and the malformed address add nothing.
    expect(perSlice).toEqual([['a@example.com'], ['b@example.com'], ['c@example.com']]);
    expect(sliced).toEqual(planLeadUpload({ leads }));
    expect(sliced.leads.map((l) => l.emailNormalized)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
    expect(sliced.leads[0]!.columns.first_name).toBe('A');
    expect([sliced.invalid, sliced.duplicates]).toEqual([1, 2]);
  });

  it('accepts ordinary addresses and rejects malformed ones', () => {
    for (const ok of ['a@b.co', 'first.last+tag@sub.example.com', "o'brien@example.ie", 'X_Y@EXAMPLE.ORG']) expect(isValidEmail(ok), ok).toBe(true);
    for (const bad of ['', 'plain', '@example.com', 'a@', 'a@b', 'a@b.c', 'a..b@example.com', 'a b@example.com', 'a@-example.com', 'a@example.123', `${'x'.repeat(65)}@example.com`])
      expect(isValidEmail(bad), bad).toBe(false);
  });

  it('trims, compares case-insensitively, counts invalid and repeated addresses, and keeps unknown keys as custom variables', () => {
    const plan = planLeadUpload({
      leads: z.array(LeadObject).parse([
        { email: '  Ann@Example.com ', first_name: ' Ann ', industry: 'SaaS', seats: 12, custom_variables: { tier: 'gold' } },
        { email: 'ann@example.COM', first_name: 'Duplicate' },
        { email: 'not-an-address' },
        { email: 42 },
        { first_name: 'No address' },
        { email: 'bob@example.com', linkedin_person_url: 'https://network.example/in/bob', network_company_url: 'https://network.example/c/x', empty: null },
      ]),
    });
    expect(plan.invalid).toBe(3);
    expect(plan.duplicates).toBe(1);
    expect(plan.leads.map((l) => [l.email, l.emailNormalized])).toEqual([
      ['Ann@Example.com', 'ann@example.com'],
      ['bob@example.com', 'bob@example.com'],
    ]);
    expect(plan.leads[0]!.columns.first_name).toBe('Ann');
    expect(plan.leads[0]!.customVariables).toEqual({ industry: 'SaaS', seats: '12', tier: 'gold' });
    expect(plan.leads[1]!.columns.network_person_url).toBe('https://network.example/in/bob');
    expect(plan.leads[1]!.columns.network_company_url).toBe('https://network.example/c/x');
    expect(plan.leads[1]!.customVariables).toEqual({});
  });

  it('stores custom_<name> keys as <name>: the plain key wins over the prefixed one, custom_variables over both', () => {
    const plan = planLeadUpload({
      leads: z.array(LeadObject).parse([
        { email: 'a@example.com', custom_one_line: 'Saw your talk', custom_tier: 'silver', tier: 'gold', custom_variables: { custom_region: 'EU' } },
        { email: 'b@example.com', custom_region: 'top', custom_variables: { region: 'inner' } },
      ]),
    });
    expect(plan.leads.map((l) => l.customVariables)).toEqual([{ one_line: 'Saw your talk', tier: 'gold', region: 'EU' }, { region: 'inner' }]);
  });
});
