-- A mailbox's last send time was written by every recording of a send and read by nothing (no
-- operation, field or rule). The write updated the mailbox rows a claim locks, so a recording
-- waited for another tick's claim holding them, and that claim skipped (SKIP LOCKED) the
-- mailboxes whose sends were being recorded. When a mailbox last sent is in its sends.

-- AlterTable
ALTER TABLE "email_accounts" DROP COLUMN "last_sent_at";
