import type { Ctx } from '../shared/context';
import { invalidField } from '../shared/errors';
import { decodeCursor, encodeCursor } from '../shared/pagination';
import type { LeadRecord, LeadSort } from './lead.schemas';

/** Labels the calling key may not see in this workspace (none for organization keys). */
export function hiddenLabelsOf(options: { ctx: Ctx; workspaceId: string }): string[] {
  return options.ctx.actor.clientGrants?.[options.workspaceId]?.hideLabels ?? [];
}

/**
 * The workspace-leads cursor: sort, direction, and the sort value and id of the last
 * lead of a page. Every part is in the lead object (`created_at` / `modified_at`, `_id`;
 * with `sort=_id` the value is the `_id` itself), so a client of the bare-array answer can
 * build the next page's trail itself.
 */
export function leadPageTrail(options: { lead: Pick<LeadRecord, '_id' | 'created_at' | 'modified_at'>; sort: LeadSort; direction: 'asc' | 'desc' }): string {
  const value = options.sort === 'created_at' ? options.lead.created_at : options.sort === 'modified_at' ? options.lead.modified_at : options.lead._id;
  return encodeCursor([options.sort, options.direction, value, options.lead._id]);
}

/** The last lead of the previous page: its sort time (null with `sort=_id`) and id. */
export function readLeadPageTrail(options: { trail: string; sort: LeadSort; direction: 'asc' | 'desc' }): { at: Date | null; id: string } {
  const [sort, direction, at, id] = decodeCursor({ cursor: options.trail, field: 'page_trail', shape: ['string', 'string', 'string', 'string'] }) as string[];
  if (sort !== options.sort || direction !== options.direction) {
    throw invalidField('page_trail', `was built for sort=${sort} direction=${direction}, not sort=${options.sort} direction=${options.direction}`);
  }
  if (options.sort === '_id') return { at: null, id: id as string };
  const date = new Date(at as string);
  if (Number.isNaN(date.getTime())) throw invalidField('page_trail', 'is not a page_trail returned by this API');
  return { at: date, id: id as string };
}
