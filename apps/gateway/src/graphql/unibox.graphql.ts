// GraphQL fields of the unibox operations.
export {};
