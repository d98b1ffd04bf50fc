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
  pickMailbox,
  pickVariation,
  pickLeastAssignedVariation,
  retryDelayMs,
  MAX_SEND_ATTEMPTS,
  RETRY_DELAYS_MS,
  remainingToday,
  sendingGapWithJitter,
} from './pacing.rules';
export { type ComposeOptions, type ComposeResult, compose } from './compose.rules';
// The mail kit the engine shares with other domains (shared/), reachable from here as before.
export { escapeHtml, htmlToText } from '../shared/mail-html';
export { followUpSubject, threadHeaders } from '../shared/mail-threading';
export { hash32 } from '../shared/hash';
export {
  type ClaimResult,
  CLAIM_LEASE_MS,
  claimDueSends,
} from './scheduler.service';
export { type TickResult, completeFinishedCampaigns, runSchedulerTick } from './send-tick.service';
export type { ClaimedSend } from './send-decision.rules';
export { type DeliveryResult, deliverClaim } from './send-delivery.service';
export { BOUNCE_RATE_MIN_SENDS, pauseOnBounceRate } from '../shared/bounce-protection.service';
export { DEFAULT_CLAIM_AHEAD_MS, type SendingWorker, startSendingWorker, TICKS_IN_FLIGHT } from './worker.service';
export { LOCK_CAMPAIGNS_SQL, LOCK_MAILBOXES_SQL, DUE_LEADS_SQL } from './scheduler.queries';
export { previewCampaignStep, sendCampaignTest, TEST_SENDS_PER_HOUR, TEST_SUBJECT_PREFIX } from './preview.operations';
export { SAMPLE_LEAD } from './preview.service';
