// GraphQL fields of the lead operations.
export {};
