-- AlterTable
ALTER TABLE "leads" ADD COLUMN     "pending_data_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "sent_emails" ADD COLUMN     "outcome_unknown" BOOLEAN NOT NULL DEFAULT false;
