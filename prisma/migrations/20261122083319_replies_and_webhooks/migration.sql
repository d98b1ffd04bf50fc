-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('PENDING', 'DELIVERED', 'FAILED');

-- AlterTable
ALTER TABLE "email_accounts" ADD COLUMN     "disconnect_reason" TEXT,
ADD COLUMN     "imap_failures" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "imap_last_uid" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "imap_retry_at" TIMESTAMPTZ(3),
ADD COLUMN     "imap_synced_at" TIMESTAMPTZ(3),
ADD COLUMN     "imap_uidvalidity" BIGINT;

-- AlterTable
ALTER TABLE "unibox_messages" ADD COLUMN     "attachments" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "lease_until" TIMESTAMPTZ(3),
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at") WHERE (status = 'PENDING');

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_id_created_at_idx" ON "webhook_deliveries"("webhook_id", "created_at");

-- CreateIndex
CREATE INDEX "leads_email_account_id_email_normalized_idx" ON "leads"("email_account_id", "email_normalized");

-- CreateIndex
CREATE INDEX "unibox_messages_email_account_id_direction_received_at_idx" ON "unibox_messages"("email_account_id", "direction", "received_at");

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_fkey" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
