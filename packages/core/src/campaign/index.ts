// The operations of this domain, keyed as their tRPC procedures are (`campaign.<key>`).
import { getVariationStats } from './variation-stats.operations';
import { createSubsequence } from './subsequence.operations';
import {
  bulkAssignCampaignTags,
  createCampaign,
  duplicateCampaign,
  getAllCampaignStats,
  getCampaignAccounts,
  getCampaignName,
  getCampaignStatus,
  listAllCampaigns,
  listCampaigns,
  setCampaignName,
} from './campaign-crud.operations';
import { setCampaignSchedules, updateCampaign } from './campaign-update.operations';
import { deleteCampaign, launchCampaign, pauseCampaign } from './campaign-state.operations';
import { previewCampaignStep, sendCampaignTest } from '../sending/index';

// What analytics reads of campaign: the not-found error, the rate rule, the unbounded range and the counters.
export { campaignNotFound } from './campaign.queries';
export { rate } from './campaign.rules';
export { OPEN_RANGE } from './variation-stats.queries';
// The kept campaign counters (the campaign summary reads them; workspace.delete counts the leads it takes off the organization).
export { countCampaignLeads, readCampaignCounters, type CampaignCounterRow } from './campaign-counters.queries';
// The kept day statistics (the date-ranged analytics read them; their test compares stats/all's with a recomputation).
export { allCampaignStats, foldCampaignDayStats, readCampaignDayStats, WORKSPACE_SCOPE, type DayStatsRow } from './campaign-day-stats.queries';

export const campaignOperations = {
  variationStats: getVariationStats,
  addSubsequence: createSubsequence,
  create: createCampaign,
  list: listCampaigns,
  listAll: listAllCampaigns,
  getName: getCampaignName,
  getStatus: getCampaignStatus,
  getAccounts: getCampaignAccounts,
  setName: setCampaignName,
  setSchedules: setCampaignSchedules,
  update: updateCampaign,
  launch: launchCampaign,
  pause: pauseCampaign,
  delete: deleteCampaign,
  duplicate: duplicateCampaign,
  bulkAssignTags: bulkAssignCampaignTags,
  statsAll: getAllCampaignStats,
  preview: previewCampaignStep,
  sendTest: sendCampaignTest,
} as const;
