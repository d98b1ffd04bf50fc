// GraphQL types and fields of the client operations.
export {};
