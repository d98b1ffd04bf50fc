// GraphQL types and fields of the workspace-settings operations.
export {};
