// The operations of this domain, keyed as their tRPC procedures are (`account.<key>`).
import { checkDomainVitals } from './vitals.operations';

// The DKIM selectors a workspace's settings make the vitals check try (workspace-settings' tests).
export { dkimSelectorsFor } from './vitals.rules';
// The vitals check itself, for the mailbox health score (email-account).
export { lookupDomainVitals } from './vitals.service';

export const accountOperations = {
  testVitals: checkDomainVitals,
} as const;
