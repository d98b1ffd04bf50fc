import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the dfy operations: method, vendor path (under /api/v1), operation. */
export const dfyRoutes: Route[] = [
  route('POST', '/dfy/generate-sender-identities', operations.dfy.generateSenderIdentities),
];
