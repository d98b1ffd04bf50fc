import { z } from 'zod';
import { nameApiSchema } from '../shared/schema-names';
import { StatusSuccess, WorkspaceIdField, requiredOr } from '../shared/schemas';
import { domainOfAccountEntry } from './vitals.rules';

export const MAX_ACCOUNTS_PER_REQUEST = 500;

/** An entry of `accounts`, parsed to the domain it stands for. */
export const AccountEntry = z
  .string({ error: 'must be a string' })
  .transform((entry, ctx) => {
    const domain = domainOfAccountEntry(entry);
    if (domain === null) {
      ctx.addIssue({ code: 'custom', message: 'must be an e-mail address or a domain name', input: entry });
      return z.NEVER;
    }
    return domain;
  })
  .describe('An e-mail address (the domain after its last @ is checked) or a bare domain');
export type AccountEntry = z.infer<typeof AccountEntry>;

export const DomainVitalsInput = z.object({
  workspace_id: WorkspaceIdField,
  accounts: z
    .array(AccountEntry, { error: requiredOr('an array of strings') })
    .min(1, 'must contain at least 1 account')
    .max(MAX_ACCOUNTS_PER_REQUEST, `must contain at most ${MAX_ACCOUNTS_PER_REQUEST} accounts per request`)
    .describe(`1 to ${MAX_ACCOUNTS_PER_REQUEST} e-mail addresses or domains; each distinct domain is checked once`),
});
export type DomainVitalsInput = z.infer<typeof DomainVitalsInput>;

export const DomainVitals = z.object({
  domain: z.string().describe('Domain checked (lower-case, IDNs in punycode)'),
  allPass: z.boolean().describe('spf && dkim && dmarc (mx is not part of it)'),
  spf: z.boolean().describe('Exactly one SPF record, not ending in +all'),
  dkim: z.boolean().describe('A DKIM key at a common or workspace-configured selector'),
  dmarc: z.boolean().describe('A DMARC record with p=none, quarantine or reject'),
  mx: z.boolean().describe('At least one MX record'),
});
export type DomainVitals = z.infer<typeof DomainVitals>;

export const DomainVitalsFailure = z.object({
  domain: z.string(),
  error: z.string().describe('Why the domain could not be checked: domain does not exist, DNS server failure, DNS lookup timed out, ...'),
});
export type DomainVitalsFailure = z.infer<typeof DomainVitalsFailure>;

export const DomainVitalsOutput = z.object({
  status: StatusSuccess,
  success_list: z.array(DomainVitals).describe('Domains checked, in order of first appearance'),
  failure_list: z.array(DomainVitalsFailure).describe('Domains whose DNS lookups failed, in order of first appearance'),
});
export type DomainVitalsOutput = z.infer<typeof DomainVitalsOutput>;

// Resource names in the API reference (OpenAPI components, generated client types).
nameApiSchema(DomainVitals, 'DomainVitals');
nameApiSchema(DomainVitalsFailure, 'DomainVitalsFailure');
