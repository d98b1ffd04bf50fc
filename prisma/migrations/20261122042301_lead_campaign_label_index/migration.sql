-- CreateIndex
CREATE INDEX "leads_campaign_id_label_idx" ON "leads"("campaign_id", "label");
