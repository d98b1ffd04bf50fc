// GraphQL fields of the vitals operations.
export {};
