import { describe, expect, it } from 'vitest';
import { readNeedsWrite, SYNCED_AT_STEP_MS, type SyncedRow } from './mailbox-sync.rules';

const now = new Date('2026-12-08T10:00:00Z');
const synced: SyncedRow = { status: 'ACTIVE', imap_failures: 0, imap_retry_at: null, imap_synced_at: new Date(now.getTime() - 60_000), imap_uidvalidity: 7n };
const nothing = { uidValidity: 7n, reset: false, messages: 0 };

describe('readNeedsWrite', () => {
  it('a read that found nothing, with nothing to clear and its time recorded recently, writes nothing', () => {
    expect(readNeedsWrite(synced, nothing, now)).toBe(false);
    expect(readNeedsWrite({ ...synced, imap_synced_at: new Date(now.getTime() - SYNCED_AT_STEP_MS + 1) }, nothing, now)).toBe(false);
  });

  it('writes once the recorded read time is a step old, or ahead of the clock, or missing', () => {
    expect(readNeedsWrite({ ...synced, imap_synced_at: new Date(now.getTime() - SYNCED_AT_STEP_MS) }, nothing, now)).toBe(true);
    expect(readNeedsWrite({ ...synced, imap_synced_at: new Date(now.getTime() + 1_000) }, nothing, now)).toBe(true);
    expect(readNeedsWrite({ ...synced, imap_synced_at: null }, nothing, now)).toBe(true);
  });

  it('writes when messages came, or UIDVALIDITY is new or changed', () => {
    expect(readNeedsWrite(synced, { ...nothing, messages: 1 }, now)).toBe(true);
    expect(readNeedsWrite(synced, { uidValidity: 8n, reset: true, messages: 0 }, now)).toBe(true);
    expect(readNeedsWrite(synced, { ...nothing, uidValidity: 8n }, now)).toBe(true);
    expect(readNeedsWrite({ ...synced, imap_uidvalidity: null }, nothing, now)).toBe(true);
  });

  it('writes to clear earlier failures, a retry time, or a disconnection by reading', () => {
    expect(readNeedsWrite({ ...synced, imap_failures: 2 }, nothing, now)).toBe(true);
    expect(readNeedsWrite({ ...synced, imap_retry_at: new Date(now.getTime() - 1) }, nothing, now)).toBe(true);
    expect(readNeedsWrite({ ...synced, status: 'DISCONNECTED' }, nothing, now)).toBe(true);
  });
});
