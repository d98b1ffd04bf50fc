import { operations } from '@outreach/core';
import { procedureFor, router } from '../trpc';

export const campaignRouter = router({
  variationStats: procedureFor(operations.campaign.variationStats),
  addSubsequence: procedureFor(operations.campaign.addSubsequence),
  create: procedureFor(operations.campaign.create),
  list: procedureFor(operations.campaign.list),
  listAll: procedureFor(operations.campaign.listAll),
  getName: procedureFor(operations.campaign.getName),
  getStatus: procedureFor(operations.campaign.getStatus),
  getAccounts: procedureFor(operations.campaign.getAccounts),
  setName: procedureFor(operations.campaign.setName),
  setSchedules: procedureFor(operations.campaign.setSchedules),
  update: procedureFor(operations.campaign.update),
  launch: procedureFor(operations.campaign.launch),
  pause: procedureFor(operations.campaign.pause),
  delete: procedureFor(operations.campaign.delete),
  duplicate: procedureFor(operations.campaign.duplicate),
  bulkAssignTags: procedureFor(operations.campaign.bulkAssignTags),
  statsAll: procedureFor(operations.campaign.statsAll),
  preview: procedureFor(operations.campaign.preview),
  sendTest: procedureFor(operations.campaign.sendTest),
});
