import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the blocklist operations: method, vendor path (under /api/v1), operation. */
export const blocklistRoutes: Route[] = [
  route('GET', '/blocklist/list', operations.blocklist.list),
  route('POST', '/blocklist/add/entries', operations.blocklist.addEntries),
  route('POST', '/blocklist/delete/entries', operations.blocklist.deleteEntries),
];
