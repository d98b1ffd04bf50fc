// GraphQL fields of the campaign operations.
export {};
