import { describe, expect, it } from 'vitest';
import { leadPageTrail, readLeadPageTrail } from './lead.rules';

const lead = { _id: '6f0000000000000000000002', created_at: '2026-05-01T10:00:00.000Z', modified_at: '2026-05-02T10:00:00.000Z' };

describe('workspace-leads page trail', () => {
  it('carries the id as the sort value with sort=_id, and the time otherwise', () => {
    const byId = leadPageTrail({ lead, sort: '_id', direction: 'asc' });
    expect(JSON.parse(Buffer.from(byId, 'base64url').toString())).toEqual(['_id', 'asc', lead._id, lead._id]);
    expect(readLeadPageTrail({ trail: byId, sort: '_id', direction: 'asc' })).toEqual({ at: null, id: lead._id });
    const byTime = leadPageTrail({ lead, sort: 'modified_at', direction: 'desc' });
    expect(readLeadPageTrail({ trail: byTime, sort: 'modified_at', direction: 'desc' })).toEqual({ at: new Date(lead.modified_at), id: lead._id });
  });

  it('refuses a trail built for another sort', () => {
    const byId = leadPageTrail({ lead, sort: '_id', direction: 'asc' });
    expect(() => readLeadPageTrail({ trail: byId, sort: 'created_at', direction: 'asc' })).toThrow(/page_trail/);
  });
});
