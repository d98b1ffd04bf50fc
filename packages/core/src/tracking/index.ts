// Open tracking and unsubscribe: the tokens in a sent e-mail's links, the rules that tell
// machine opens from human ones, and what following a link does.
export { type TrackingPurpose, TRACKING_PATHS, readTrackingToken, trackingLinks, trackingToken } from './tracking-token';
export {
  type MachineOpenReason,
  type OpenClassification,
  MACHINE_OPEN_MIN_DELAY_MS,
  MACHINE_USER_AGENT_PATTERNS,
  classifyOpen,
  machineUserAgentPattern,
} from './open.rules';
export {
  type UnsubscribeDescription,
  type UnsubscribeResult,
  MAX_STORED_USER_AGENT,
  UNSUBSCRIBE_BLOCKLIST_LABEL,
  UNSUBSCRIBED_ELSEWHERE_REASON,
  UNSUBSCRIBED_LEAD_EVENT,
  UNSUBSCRIBED_REASON,
  describeUnsubscribe,
  maskEmail,
  recordOpen,
  unsubscribeByToken,
} from './tracking.service';
