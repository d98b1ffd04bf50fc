// GraphQL fields of the placement operations.
export {};
