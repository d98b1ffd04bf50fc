// The operations of this domain, keyed as their tRPC procedures are (`blocklist.<key>`).

export const blocklistOperations = {
} as const;
