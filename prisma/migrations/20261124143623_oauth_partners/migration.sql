-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "partner_name" TEXT;

-- AlterTable
ALTER TABLE "email_accounts" ADD COLUMN     "auth_type" TEXT NOT NULL DEFAULT 'PASSWORD',
ADD COLUMN     "oauth_access_expires_at" TIMESTAMPTZ(3),
ADD COLUMN     "oauth_access_token_enc" TEXT,
ADD COLUMN     "oauth_refresh_lease_until" TIMESTAMPTZ(3),
ADD COLUMN     "oauth_refresh_token_enc" TEXT,
ADD COLUMN     "partner_name" TEXT,
ADD COLUMN     "partner_provider_id" TEXT;

-- CreateTable
CREATE TABLE "partner_grants" (
    "api_key_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_grants_pkey" PRIMARY KEY ("api_key_id","workspace_id")
);

-- CreateTable
CREATE TABLE "partner_activity" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "partner_name" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "workspace_id" TEXT,
    "email_account_id" TEXT,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "partner_activity_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "installation_settings" (
    "key" TEXT NOT NULL,
    "value_enc" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "installation_settings_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "oauth_states" (
    "state_hash" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "api_key_id" TEXT,
    "provider" TEXT NOT NULL,
    "code_verifier_enc" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "redirect_after" TEXT,
    "email_account_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth_states_pkey" PRIMARY KEY ("state_hash")
);

-- CreateIndex
CREATE INDEX "partner_grants_workspace_id_idx" ON "partner_grants"("workspace_id");

-- CreateIndex
CREATE INDEX "partner_activity_organization_id_occurred_at_idx" ON "partner_activity"("organization_id", "occurred_at");

-- CreateIndex
CREATE INDEX "partner_activity_email_account_id_idx" ON "partner_activity"("email_account_id");

-- CreateIndex
CREATE INDEX "oauth_states_expires_at_idx" ON "oauth_states"("expires_at");

-- AddForeignKey
ALTER TABLE "partner_grants" ADD CONSTRAINT "partner_grants_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partner_grants" ADD CONSTRAINT "partner_grants_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
