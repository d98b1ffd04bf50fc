import type { z } from 'zod';
import { operations } from '@outreach/core';
import { builder } from './builder';
import { runOperation } from './run';

// Core's index does not export the vitals schemas; the operation's output schema is the source.
type VitalsOutput = z.output<typeof operations.account.testVitals.output>;
type DomainVitals = VitalsOutput['success_list'][number];
type DomainVitalsFailure = VitalsOutput['failure_list'][number];

const DomainVitalsType = builder.objectRef<DomainVitals>('DomainVitals').implement({
  description: 'The SPF, DKIM, DMARC and MX checks of one domain',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    allPass: t.exposeBoolean('allPass', { description: 'spf && dkim && dmarc (mx is not part of it)' }),
    spf: t.exposeBoolean('spf', { description: 'Exactly one SPF record, not ending in +all' }),
    dkim: t.exposeBoolean('dkim', { description: 'A DKIM key at a common or workspace-configured selector' }),
    dmarc: t.exposeBoolean('dmarc', { description: 'A DMARC record with p=none, quarantine or reject' }),
    mx: t.exposeBoolean('mx', { description: 'At least one MX record' }),
  }),
});

const DomainVitalsFailureType = builder.objectRef<DomainVitalsFailure>('DomainVitalsFailure').implement({
  description: 'A domain whose DNS lookups failed, and why',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    error: t.exposeString('error', { description: 'domain does not exist, DNS server failure, DNS lookup timed out, ...' }),
  }),
});

const DomainVitalsReportType = builder.objectRef<VitalsOutput>('DomainVitalsReport').implement({
  description: 'Domains checked and domains that could not be checked, each in order of first appearance',
  fields: (t) => ({
    successList: t.field({ type: [DomainVitalsType], resolve: (report) => report.success_list }),
    failureList: t.field({ type: [DomainVitalsFailureType], resolve: (report) => report.failure_list }),
  }),
});

builder.mutationField('testDomainVitals', (t) =>
  t.field({
    type: DomainVitalsReportType,
    description: 'Checks SPF, DKIM, DMARC and MX of the domains of 1 to 500 addresses or bare domains; nothing is stored',
    args: {
      workspaceId: t.arg.id({ required: true }),
      accounts: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, { ctx }) =>
      runOperation({ op: operations.account.testVitals, ctx, input: { workspace_id: args.workspaceId, accounts: args.accounts } }),
  }),
);
