import { operations } from '@outreach/core';
import { route, type Route } from '../route';

/** REST routes of the lead operations: method, vendor path (under /api/v1), operation. */
export const leadRoutes: Route[] = [
  route('POST', '/lead/add', operations.lead.add),
  route('GET', '/lead/get', operations.lead.get),
  route('GET', '/lead/workspace-leads', operations.lead.workspaceLeads),
  route('GET', '/lead/count/lead-status', operations.lead.countByStatus),
  route('POST', '/lead/data/update', operations.lead.updateData),
  route('POST', '/lead/update/status', operations.lead.updateStatus),
  route('POST', '/lead/delete', operations.lead.delete),
  route('POST', '/lead/add-lead-in-subseq', operations.lead.addToSubsequence),
];
