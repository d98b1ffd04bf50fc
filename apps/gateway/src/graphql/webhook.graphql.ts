// GraphQL types and fields of the webhook operations.
export {};
