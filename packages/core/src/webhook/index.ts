// The operations of this domain, keyed as their tRPC procedures are (`webhook.<key>`).

export const webhookOperations = {
} as const;
