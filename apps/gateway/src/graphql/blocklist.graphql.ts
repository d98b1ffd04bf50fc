// GraphQL types and fields of the blocklist operations.
export {};
