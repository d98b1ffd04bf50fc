-- CreateIndex
CREATE INDEX "api_keys_workspace_id_idx" ON "api_keys"("workspace_id");

-- CreateIndex
CREATE INDEX "api_keys_client_id_idx" ON "api_keys"("client_id");

-- CreateIndex
CREATE INDEX "sent_emails_variation_id_idx" ON "sent_emails"("variation_id");

-- CreateIndex
CREATE INDEX "unibox_threads_email_account_id_idx" ON "unibox_threads"("email_account_id");
