-- AlterTable
ALTER TABLE "unibox_messages" ALTER COLUMN "imap_uid" SET DATA TYPE BIGINT;
