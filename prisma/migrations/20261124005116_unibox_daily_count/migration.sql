-- AlterTable
ALTER TABLE "email_accounts" ADD COLUMN     "unibox_day_start" TIMESTAMPTZ(3),
ADD COLUMN     "unibox_sent_today" INTEGER NOT NULL DEFAULT 0;
