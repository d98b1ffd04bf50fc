-- AlterTable
ALTER TABLE "campaigns" ADD COLUMN     "paused_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "email_accounts" ADD COLUMN     "next_send_allowed_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "leads" ADD COLUMN     "claimed_at" TIMESTAMPTZ(3),
ADD COLUMN     "pending_send_id" TEXT,
ADD COLUMN     "pending_variation_id" TEXT,
ADD COLUMN     "send_attempts" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "variations" ADD COLUMN     "assigned_count" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "leads_due_idx" ON "leads"("campaign_id", "next_send_at") WHERE (next_send_at IS NOT NULL);

-- CreateIndex
CREATE INDEX "leads_in_flight_idx" ON "leads"("email_account_id") WHERE (claimed_at IS NOT NULL);

-- Leads stored before the scheduler existed have never been sent to: each is due from
-- when it was added (the scheduler only looks at ACTIVE campaigns inside their window).
UPDATE "leads" SET "next_send_at" = "created_at"
WHERE "next_send_at" IS NULL AND "status" = 'NOT_CONTACTED' AND NOT "is_completed";
