// The operations of this domain, keyed as their tRPC procedures are (`placement.<key>`).
import { listRecipientProviders } from './recipient-providers.operations';

export const placementOperations = {
  recipientProviders: listRecipientProviders,
} as const;
