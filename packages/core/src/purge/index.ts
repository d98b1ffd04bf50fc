// Deletes that answer at once and purge in the background (docs/database.md, "Deletes"): the
// tombstones the delete operations set, the purge rounds and the worker that runs them.
export { deleteOrganization, PURGE_BATCH, runPurgeRound, SYNC_DELETE_MAX_LEADS, tombstoneCampaign, tombstoneWorkspace, type PurgeProgress, type PurgeRoundResult } from './purge.service';
export { detachInboxFromLeads, tablesWithColumn, type PurgeTarget } from './purge.queries';
export { startPurgeWorker, type PurgeWorker } from './worker.service';
