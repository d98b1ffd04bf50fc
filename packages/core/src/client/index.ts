// The operations of this domain, keyed as their tRPC procedures are (`client.<key>`).

export const clientOperations = {
} as const;
