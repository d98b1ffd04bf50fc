-- DropIndex
DROP INDEX "webhook_deliveries_due_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_pending_idx" ON "webhook_deliveries"("webhook_id", "next_attempt_at", "created_at", "id") WHERE (status = 'PENDING');
