-- CreateTable
CREATE TABLE "account_automation_rules" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "scope_type" TEXT NOT NULL,
    "scope_ids" TEXT[],
    "metric" TEXT NOT NULL,
    "operator" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "window_days" INTEGER NOT NULL,
    "actions" JSONB NOT NULL,
    "cooldown_minutes" INTEGER NOT NULL,
    "last_evaluated_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_automation_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "account_automation_states" (
    "rule_id" TEXT NOT NULL,
    "email_account_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "last_value" DOUBLE PRECISION,
    "last_outcome" TEXT NOT NULL,
    "last_evaluated_at" TIMESTAMPTZ(3) NOT NULL,
    "last_fired_at" TIMESTAMPTZ(3),

    CONSTRAINT "account_automation_states_pkey" PRIMARY KEY ("rule_id","email_account_id")
);

-- CreateTable
CREATE TABLE "account_automation_firings" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email_account_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "actions" JSONB NOT NULL,
    "fired_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "account_automation_firings_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "account_automation_rules_workspace_id_created_at_idx" ON "account_automation_rules"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "account_automation_rules_status_workspace_id_idx" ON "account_automation_rules"("status", "workspace_id");

-- CreateIndex
CREATE INDEX "account_automation_states_email_account_id_idx" ON "account_automation_states"("email_account_id");

-- CreateIndex
CREATE INDEX "account_automation_firings_rule_id_fired_at_idx" ON "account_automation_firings"("rule_id", "fired_at");

-- AddForeignKey
ALTER TABLE "account_automation_rules" ADD CONSTRAINT "account_automation_rules_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_automation_states" ADD CONSTRAINT "account_automation_states_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "account_automation_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_automation_states" ADD CONSTRAINT "account_automation_states_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_automation_firings" ADD CONSTRAINT "account_automation_firings_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "account_automation_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
