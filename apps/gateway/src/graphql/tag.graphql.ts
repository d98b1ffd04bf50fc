// GraphQL types and fields of the tag operations.
export {};
