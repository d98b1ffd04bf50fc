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
});

export type AppRouter = typeof appRouter;
