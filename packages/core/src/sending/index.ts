// Pure rules of the sending engine: no database, no I/O, no clock (the time is always a
// parameter). Rendering a step is personalize() then spin(); see each file for the why.
export {
  type CampaignSchedule,
  type IsoWeekday,
  type ScheduleProblem,
  ISO_WEEKDAYS,
  isWithinWindow,
  localDay,
  nextWindowStart,
  validateSchedule,
  zonedTimeToInstant,
} from './schedule.rules';
export {
  type PersonalizeOptions,
  type PersonalizeResult,
  BUILT_IN_VARIABLES,
  canonicalVariableName,
  escapeHtml,
  escapeSpintax,
  personalize,
  templateVariables,
} from './personalize.rules';
export { hasSpintax, spin } from './spintax.rules';
export {
  type MailboxCandidate,
  type Variation,
  GAP_JITTER_MAX,
  GAP_JITTER_MIN,
  ZERO_GAP_JITTER_MS,
  followUpSubject,
  pickMailbox,
  pickVariation,
  pickLeastAssignedVariation,
  retryDelayMs,
  MAX_SEND_ATTEMPTS,
  RETRY_DELAYS_MS,
  remainingToday,
  sendingGapWithJitter,
  threadHeaders,
} from './pacing.rules';
export { type ComposeOptions, type ComposeResult, compose, htmlToText } from './compose.rules';
export { hash32 } from './hash';
export {
  type ClaimedSend,
  type ClaimResult,
  type DeliveryResult,
  type TickResult,
  BOUNCE_RATE_MIN_SENDS,
  CLAIM_LEASE_MS,
  claimDueSends,
  completeFinishedCampaigns,
  deliverClaim,
  runSchedulerTick,
} from './scheduler.service';
export { type SendingWorker, startSendingWorker } from './worker.service';
export { LOCK_AND_COUNT_SQL, DUE_LEADS_SQL } from './scheduler.queries';
