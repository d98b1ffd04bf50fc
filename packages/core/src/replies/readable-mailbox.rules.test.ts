import { describe, expect, it } from 'vitest';
import { isReadable } from './readable-mailbox.rules';

describe('which mailboxes the reply worker reads', () => {
  it('reads a connected mailbox, and one its IMAP login disconnected (to reconnect it)', () => {
    expect(isReadable({ status: 'ACTIVE', disconnect_reason: null })).toBe(true);
    expect(isReadable({ status: 'DISCONNECTED', disconnect_reason: 'imap_auth' })).toBe(true);
  });

  it('does not read a paused mailbox, nor one disconnected otherwise (its workspace deleted, its grant revoked, its SMTP login refused)', () => {
    expect(isReadable({ status: 'PAUSED', disconnect_reason: null })).toBe(false);
    for (const reason of ['workspace deleted', 'oauth_revoked', 'smtp_auth', null]) expect(isReadable({ status: 'DISCONNECTED', disconnect_reason: reason })).toBe(false);
  });
});
