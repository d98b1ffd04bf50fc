// GraphQL fields of the dfy operations.
export {};
