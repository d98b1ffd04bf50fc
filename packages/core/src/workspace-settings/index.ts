// The operations of this domain, keyed as their tRPC procedures are (`workspaceSettings.<key>`).

export const workspaceSettingsOperations = {
} as const;
