// The operations of this domain, keyed as their tRPC procedures are (`account.<key>`).
import { checkDomainVitals } from './vitals.operations';

export const accountOperations = {
  testVitals: checkDomainVitals,
} as const;
