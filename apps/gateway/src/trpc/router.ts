import { operations } from '@outreach/core';
import { procedureFor, router } from './trpc';

/** Mirrors the operation registry by domain: `workspace.list`, `campaign.launch`, … */
export const appRouter = router({
  workspace: router({
    list: procedureFor(operations.workspace.list),
    create: procedureFor(operations.workspace.create),
  }),
  leadLabel: router({
    list: procedureFor(operations.leadLabel.list),
  }),
  campaign: router({
    variationStats: procedureFor(operations.campaign.variationStats),
    addSubsequence: procedureFor(operations.campaign.addSubsequence),
  }),
  unibox: router({
    campaignEmails: procedureFor(operations.unibox.campaignEmails),
  }),
  lead: router({
    add: procedureFor(operations.lead.add),
  }),
  dfy: router({
    generateSenderIdentities: procedureFor(operations.dfy.generateSenderIdentities),
  }),
  placement: router({
    recipientProviders: procedureFor(operations.placement.recipientProviders),
  }),
  account: router({
    testVitals: procedureFor(operations.account.testVitals),
  }),
});

export type AppRouter = typeof appRouter;
