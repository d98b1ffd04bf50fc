// Which mailboxes the reply worker reads: connected ones, and those their IMAP login disconnected
// (read on, to reconnect them). Not one paused, nor one disconnected otherwise (its workspace
// deleted, its OAuth grant revoked, its SMTP login refused).
import type { Prisma } from '@outreach/db';

/** Disconnected by reading it (its IMAP login refused): read on, to reconnect it. */
export const IMAP_DISCONNECTED = { status: 'DISCONNECTED', disconnectReason: 'imap_auth' } as const;

/** READABLE as a Prisma filter of email accounts. */
export const READABLE: Prisma.EmailAccountWhereInput = { OR: [{ status: 'ACTIVE' }, IMAP_DISCONNECTED] };

/** Whether a mailbox row (status, disconnect_reason) is one the reply worker reads. */
export function isReadable(row: { status: string; disconnect_reason: string | null }): boolean {
  return row.status === 'ACTIVE' || (row.status === IMAP_DISCONNECTED.status && row.disconnect_reason === IMAP_DISCONNECTED.disconnectReason);
}
