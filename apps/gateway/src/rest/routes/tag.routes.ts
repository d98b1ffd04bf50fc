import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the tag operations: method, vendor path (under /api/v1), operation. */
export const tagRoutes: Route[] = [
  route('GET', '/tags/list', operations.tag.list),
  route('POST', '/tags/create', operations.tag.create),
  route('PUT', '/tags/update', operations.tag.update),
  route('DELETE', '/tags/delete', operations.tag.delete),
];
