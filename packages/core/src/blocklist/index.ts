// The operations of this domain, keyed as their tRPC procedures are (`blocklist.<key>`).
import { addBlocklistEntries, deleteBlocklistEntries, listBlocklist } from './blocklist.operations';

export const blocklistOperations = {
  list: listBlocklist,
  addEntries: addBlocklistEntries,
  deleteEntries: deleteBlocklistEntries,
} as const;
