// The operations of this domain, keyed as their tRPC procedures are (`tag.<key>`).

export const tagOperations = {
} as const;
