// The operations of this domain, keyed as their tRPC procedures are (`dfy.<key>`).
import { generateSenderIdentities } from './sender-identities.operations';

export const dfyOperations = {
  generateSenderIdentities,
} as const;
