-- CreateIndex
CREATE INDEX "leads_workspace_id_id_idx" ON "leads"("workspace_id", "id");
