-- DropIndex
DROP INDEX "webhook_deliveries_webhook_pending_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhook_queue_idx" ON "webhook_deliveries"("webhook_id", "created_at", "id") WHERE (status = 'PENDING');
