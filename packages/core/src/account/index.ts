// The operations of this domain, keyed as their tRPC procedures are (`account.<key>`).
import { checkDomainVitals } from './vitals.operations';

// The DKIM selectors a workspace's settings make the vitals check try (workspace-settings' tests).
export { dkimSelectorsFor } from './vitals.rules';

export const accountOperations = {
  testVitals: checkDomainVitals,
} as const;
