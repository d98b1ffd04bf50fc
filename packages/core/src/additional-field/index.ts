// The operations of this domain, keyed as their tRPC procedures are (`additionalField.<key>`).

export const additionalFieldOperations = {
} as const;
