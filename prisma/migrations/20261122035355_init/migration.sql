-- CreateEnum
CREATE TYPE "ClientStatus" AS ENUM ('ACTIVE', 'INACTIVE');

-- CreateEnum
CREATE TYPE "CampaignType" AS ENUM ('parent', 'subseq');

-- CreateEnum
CREATE TYPE "CampaignStatus" AS ENUM ('DRAFT', 'ACTIVE', 'PAUSED', 'COMPLETED', 'ARCHIVED');

-- CreateEnum
CREATE TYPE "SubsequenceEvent" AS ENUM ('LEAD_LABEL_UPDATED', 'LEAD_REPLY_CONTENT', 'LEAD_REPLY_ALL', 'LEAD_REPLY_ALL_EXCEPT_OOO_AUTOMATIC_REPLY');

-- CreateEnum
CREATE TYPE "LeadStatus" AS ENUM ('NOT_CONTACTED', 'CONTACTED', 'COMPLETED', 'REPLIED', 'RESCHEDULED', 'UNSUBSCRIBED', 'BOUNCED', 'SKIPPED');

-- CreateEnum
CREATE TYPE "LabelSentiment" AS ENUM ('POSITIVE', 'NEGATIVE', 'NEUTRAL');

-- CreateEnum
CREATE TYPE "EmailAccountStatus" AS ENUM ('ACTIVE', 'DISCONNECTED', 'PAUSED');

-- CreateEnum
CREATE TYPE "EmailEventType" AS ENUM ('OPEN', 'CLICK', 'REPLY', 'BOUNCE', 'UNSUBSCRIBE');

-- CreateEnum
CREATE TYPE "MessageDirection" AS ENUM ('IN', 'OUT');

-- CreateEnum
CREATE TYPE "UniboxFolder" AS ENUM ('INBOX', 'OTHERS', 'DRAFTS');

-- CreateEnum
CREATE TYPE "WebhookStatus" AS ENUM ('ACTIVE', 'DISABLED');

-- CreateTable
CREATE TABLE "organizations" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "lead_allowance" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "organizations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workspaces" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "timezone" TEXT NOT NULL DEFAULT 'UTC',
    "settings" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workspaces_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT,
    "client_id" TEXT,
    "name" TEXT NOT NULL DEFAULT 'default',
    "key_hash" TEXT NOT NULL,
    "key_prefix" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clients" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT NOT NULL DEFAULT '',
    "last_name" TEXT NOT NULL DEFAULT '',
    "business_name" TEXT NOT NULL DEFAULT '',
    "status" "ClientStatus" NOT NULL DEFAULT 'ACTIVE',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "client_grants" (
    "client_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "permissions" TEXT[],
    "hide_labels" TEXT[],

    CONSTRAINT "client_grants_pkey" PRIMARY KEY ("client_id","workspace_id")
);

-- CreateTable
CREATE TABLE "campaigns" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "parent_id" TEXT,
    "type" "CampaignType" NOT NULL DEFAULT 'parent',
    "status" "CampaignStatus" NOT NULL DEFAULT 'DRAFT',
    "name" TEXT NOT NULL,
    "daily_limit" INTEGER NOT NULL DEFAULT 100,
    "daily_limit_new_lead" INTEGER,
    "interval_limit_in_min" INTEGER NOT NULL DEFAULT 10,
    "send_as_txt" BOOLEAN NOT NULL DEFAULT false,
    "open_tracking" BOOLEAN NOT NULL DEFAULT true,
    "unsubscribe_link" BOOLEAN NOT NULL DEFAULT true,
    "stop_on_lead_replied" BOOLEAN NOT NULL DEFAULT true,
    "pause_on_bounce_rate" BOOLEAN NOT NULL DEFAULT false,
    "bounce_rate_limit" DOUBLE PRECISION NOT NULL DEFAULT 5,
    "first_wait_time" INTEGER NOT NULL DEFAULT 0,
    "schedule" JSONB,
    "start_date" DATE,
    "end_date" DATE,
    "paused_reason" TEXT,
    "last_lead_sent_at" TIMESTAMPTZ(3),
    "last_lead_replied_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "campaigns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subsequence_triggers" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "subsequence_id" TEXT NOT NULL,
    "parent_campaign_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "event" "SubsequenceEvent" NOT NULL,
    "labels" TEXT[],
    "include_text" TEXT[],
    "exclude_text" TEXT[],

    CONSTRAINT "subsequence_triggers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sequence_steps" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "step" INTEGER NOT NULL,
    "wait_time" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sequence_steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "variations" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "step_id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "name" TEXT,
    "subject" TEXT NOT NULL DEFAULT '',
    "body" TEXT NOT NULL DEFAULT '',
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "is_deleted" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "variations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tags" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "name_normalized" TEXT NOT NULL,
    "color" TEXT NOT NULL DEFAULT '#6B7280',
    "description" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'ACTIVE',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tags_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "campaign_tags" (
    "campaign_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,

    CONSTRAINT "campaign_tags_pkey" PRIMARY KEY ("campaign_id","tag_id")
);

-- CreateTable
CREATE TABLE "leads" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_normalized" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "notes" TEXT,
    "address_line" TEXT,
    "city" TEXT,
    "state" TEXT,
    "country" TEXT,
    "country_code" TEXT,
    "phone_number" TEXT,
    "company_name" TEXT,
    "company_website" TEXT,
    "job_title" TEXT,
    "network_person_url" TEXT,
    "network_company_url" TEXT,
    "custom_variables" JSONB NOT NULL DEFAULT '{}',
    "status" "LeadStatus" NOT NULL DEFAULT 'NOT_CONTACTED',
    "label" TEXT,
    "current_step" INTEGER NOT NULL DEFAULT 0,
    "is_completed" BOOLEAN NOT NULL DEFAULT false,
    "email_account_id" TEXT,
    "next_send_at" TIMESTAMPTZ(3),
    "last_sent_at" TIMESTAMPTZ(3),
    "bounce_msg" TEXT,
    "status_reason" TEXT,
    "source_lead_id" TEXT,
    "upload_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "leads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_uploads" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "crm_sync" BOOLEAN NOT NULL DEFAULT false,
    "flags" JSONB NOT NULL DEFAULT '{}',
    "total_sent" INTEGER NOT NULL DEFAULT 0,
    "leads_uploaded" INTEGER NOT NULL DEFAULT 0,
    "duplicate_email_count" INTEGER NOT NULL DEFAULT 0,
    "already_in_campaign" INTEGER NOT NULL DEFAULT 0,
    "invalid_email_count" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "overflowed_lead_count" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lead_uploads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_events" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "lead_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL DEFAULT '{}',
    "occurred_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lead_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lead_labels" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sentiment" "LabelSentiment" NOT NULL,
    "icon" TEXT NOT NULL DEFAULT '',
    "is_system" BOOLEAN NOT NULL DEFAULT false,
    "is_ai_label" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "lead_labels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "blocklist_entries" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "is_domain" BOOLEAN NOT NULL,
    "created_by_label" TEXT NOT NULL DEFAULT 'API',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "blocklist_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_accounts" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "email_normalized" TEXT NOT NULL,
    "first_name" TEXT NOT NULL DEFAULT '',
    "last_name" TEXT NOT NULL DEFAULT '',
    "provider" TEXT NOT NULL DEFAULT 'REGULAR_ACCOUNT',
    "status" "EmailAccountStatus" NOT NULL DEFAULT 'ACTIVE',
    "warmup_status" TEXT NOT NULL DEFAULT 'INACTIVE',
    "smtp_host" TEXT NOT NULL,
    "smtp_port" INTEGER NOT NULL,
    "smtp_username" TEXT NOT NULL,
    "smtp_password_enc" TEXT NOT NULL,
    "imap_host" TEXT NOT NULL,
    "imap_port" INTEGER NOT NULL,
    "imap_username" TEXT NOT NULL,
    "imap_password_enc" TEXT NOT NULL,
    "daily_limit" INTEGER NOT NULL DEFAULT 30,
    "sending_gap" INTEGER NOT NULL DEFAULT 10,
    "signature" TEXT NOT NULL DEFAULT '',
    "reply_to" TEXT,
    "last_error" TEXT,
    "last_sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "email_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_account_tags" (
    "email_account_id" TEXT NOT NULL,
    "tag_id" TEXT NOT NULL,

    CONSTRAINT "email_account_tags_pkey" PRIMARY KEY ("email_account_id","tag_id")
);

-- CreateTable
CREATE TABLE "campaign_email_accounts" (
    "campaign_id" TEXT NOT NULL,
    "email_account_id" TEXT NOT NULL,

    CONSTRAINT "campaign_email_accounts_pkey" PRIMARY KEY ("campaign_id","email_account_id")
);

-- CreateTable
CREATE TABLE "sent_emails" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "parent_campaign_id" TEXT,
    "lead_id" TEXT NOT NULL,
    "email_account_id" TEXT,
    "step" INTEGER NOT NULL,
    "variation_id" TEXT,
    "variation_label" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "is_text" BOOLEAN NOT NULL DEFAULT false,
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    "opened_at" TIMESTAMPTZ(3),
    "replied_at" TIMESTAMPTZ(3),
    "bounced_at" TIMESTAMPTZ(3),
    "unsubscribed_at" TIMESTAMPTZ(3),

    CONSTRAINT "sent_emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_events" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "sent_email_id" TEXT NOT NULL,
    "campaign_id" TEXT NOT NULL,
    "lead_id" TEXT NOT NULL,
    "type" "EmailEventType" NOT NULL,
    "is_machine" BOOLEAN NOT NULL DEFAULT false,
    "data" JSONB NOT NULL DEFAULT '{}',
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "email_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "unibox_threads" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "email_account_id" TEXT,
    "lead_id" TEXT,
    "campaign_id" TEXT,
    "subject" TEXT NOT NULL DEFAULT '',
    "is_unread" BOOLEAN NOT NULL DEFAULT false,
    "last_message_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "unibox_threads_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "unibox_messages" (
    "id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "email_account_id" TEXT,
    "lead_id" TEXT,
    "campaign_id" TEXT,
    "sent_email_id" TEXT,
    "direction" "MessageDirection" NOT NULL,
    "folder" "UniboxFolder" NOT NULL DEFAULT 'INBOX',
    "message_id" TEXT NOT NULL,
    "in_reply_to" TEXT,
    "references" TEXT[],
    "from_address" TEXT NOT NULL,
    "from_json" JSONB NOT NULL DEFAULT '[]',
    "to_json" JSONB NOT NULL DEFAULT '[]',
    "cc_json" JSONB NOT NULL DEFAULT '[]',
    "bcc_json" JSONB NOT NULL DEFAULT '[]',
    "subject" TEXT NOT NULL DEFAULT '',
    "text_body" TEXT NOT NULL DEFAULT '',
    "html_body" TEXT NOT NULL DEFAULT '',
    "is_unread" BOOLEAN NOT NULL DEFAULT false,
    "label" TEXT,
    "classification" TEXT,
    "from_other_address" BOOLEAN NOT NULL DEFAULT false,
    "raw" TEXT,
    "parse_error" TEXT,
    "imap_uid" INTEGER,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "unibox_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "secret_enc" TEXT,
    "camp_ids" TEXT[],
    "event_types" TEXT[],
    "status" "WebhookStatus" NOT NULL DEFAULT 'ACTIVE',
    "ignore_ooo" BOOLEAN NOT NULL DEFAULT false,
    "ignore_automatic" BOOLEAN NOT NULL DEFAULT false,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "last_run" TIMESTAMPTZ(3),
    "last_resp" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workspaces_organization_id_created_at_idx" ON "workspaces"("organization_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");

-- CreateIndex
CREATE UNIQUE INDEX "clients_organization_id_email_key" ON "clients"("organization_id", "email");

-- CreateIndex
CREATE INDEX "client_grants_workspace_id_idx" ON "client_grants"("workspace_id");

-- CreateIndex
CREATE INDEX "campaigns_workspace_id_status_created_at_idx" ON "campaigns"("workspace_id", "status", "created_at");

-- CreateIndex
CREATE INDEX "campaigns_workspace_id_type_created_at_idx" ON "campaigns"("workspace_id", "type", "created_at");

-- CreateIndex
CREATE INDEX "campaigns_parent_id_idx" ON "campaigns"("parent_id");

-- CreateIndex
CREATE INDEX "subsequence_triggers_parent_campaign_id_event_idx" ON "subsequence_triggers"("parent_campaign_id", "event");

-- CreateIndex
CREATE UNIQUE INDEX "subsequence_triggers_subsequence_id_position_key" ON "subsequence_triggers"("subsequence_id", "position");

-- CreateIndex
CREATE UNIQUE INDEX "sequence_steps_campaign_id_step_key" ON "sequence_steps"("campaign_id", "step");

-- CreateIndex
CREATE INDEX "variations_campaign_id_idx" ON "variations"("campaign_id");

-- CreateIndex
CREATE UNIQUE INDEX "variations_step_id_label_key" ON "variations"("step_id", "label");

-- CreateIndex
CREATE UNIQUE INDEX "tags_workspace_id_name_normalized_key" ON "tags"("workspace_id", "name_normalized");

-- CreateIndex
CREATE INDEX "campaign_tags_tag_id_idx" ON "campaign_tags"("tag_id");

-- CreateIndex
CREATE INDEX "leads_workspace_id_email_normalized_idx" ON "leads"("workspace_id", "email_normalized");

-- CreateIndex
CREATE INDEX "leads_workspace_id_created_at_id_idx" ON "leads"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "leads_campaign_id_status_idx" ON "leads"("campaign_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "leads_campaign_id_email_normalized_key" ON "leads"("campaign_id", "email_normalized");

-- CreateIndex
CREATE INDEX "lead_uploads_campaign_id_created_at_idx" ON "lead_uploads"("campaign_id", "created_at");

-- CreateIndex
CREATE INDEX "lead_events_lead_id_occurred_at_idx" ON "lead_events"("lead_id", "occurred_at");

-- CreateIndex
CREATE INDEX "lead_events_workspace_id_type_occurred_at_idx" ON "lead_events"("workspace_id", "type", "occurred_at");

-- CreateIndex
CREATE UNIQUE INDEX "lead_labels_workspace_id_key_key" ON "lead_labels"("workspace_id", "key");

-- CreateIndex
CREATE INDEX "blocklist_entries_workspace_id_created_at_id_idx" ON "blocklist_entries"("workspace_id", "created_at", "id");

-- CreateIndex
CREATE UNIQUE INDEX "blocklist_entries_workspace_id_value_key" ON "blocklist_entries"("workspace_id", "value");

-- CreateIndex
CREATE UNIQUE INDEX "email_accounts_workspace_id_email_normalized_key" ON "email_accounts"("workspace_id", "email_normalized");

-- CreateIndex
CREATE INDEX "email_account_tags_tag_id_idx" ON "email_account_tags"("tag_id");

-- CreateIndex
CREATE INDEX "campaign_email_accounts_email_account_id_idx" ON "campaign_email_accounts"("email_account_id");

-- CreateIndex
CREATE INDEX "sent_emails_campaign_id_sent_at_variation_id_opened_at_repl_idx" ON "sent_emails"("campaign_id", "sent_at", "variation_id", "opened_at", "replied_at", "lead_id");

-- CreateIndex
CREATE INDEX "sent_emails_lead_id_sent_at_id_idx" ON "sent_emails"("lead_id", "sent_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sent_emails_email_account_id_sent_at_idx" ON "sent_emails"("email_account_id", "sent_at");

-- CreateIndex
CREATE UNIQUE INDEX "sent_emails_workspace_id_message_id_key" ON "sent_emails"("workspace_id", "message_id");

-- CreateIndex
CREATE INDEX "email_events_sent_email_id_type_idx" ON "email_events"("sent_email_id", "type");

-- CreateIndex
CREATE INDEX "email_events_campaign_id_type_occurred_at_idx" ON "email_events"("campaign_id", "type", "occurred_at");

-- CreateIndex
CREATE INDEX "unibox_threads_workspace_id_last_message_at_id_idx" ON "unibox_threads"("workspace_id", "last_message_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "unibox_threads_lead_id_idx" ON "unibox_threads"("lead_id");

-- CreateIndex
CREATE INDEX "unibox_messages_workspace_id_folder_received_at_id_idx" ON "unibox_messages"("workspace_id", "folder", "received_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "unibox_messages_thread_id_received_at_idx" ON "unibox_messages"("thread_id", "received_at");

-- CreateIndex
CREATE INDEX "unibox_messages_lead_id_idx" ON "unibox_messages"("lead_id");

-- CreateIndex
CREATE UNIQUE INDEX "unibox_messages_workspace_id_message_id_key" ON "unibox_messages"("workspace_id", "message_id");

-- CreateIndex
CREATE INDEX "webhooks_workspace_id_created_at_idx" ON "webhooks"("workspace_id", "created_at");

-- AddForeignKey
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "clients" ADD CONSTRAINT "clients_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_grants" ADD CONSTRAINT "client_grants_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "client_grants" ADD CONSTRAINT "client_grants_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subsequence_triggers" ADD CONSTRAINT "subsequence_triggers_subsequence_id_fkey" FOREIGN KEY ("subsequence_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "subsequence_triggers" ADD CONSTRAINT "subsequence_triggers_parent_campaign_id_fkey" FOREIGN KEY ("parent_campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sequence_steps" ADD CONSTRAINT "sequence_steps_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "variations" ADD CONSTRAINT "variations_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "sequence_steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "variations" ADD CONSTRAINT "variations_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tags" ADD CONSTRAINT "tags_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_tags" ADD CONSTRAINT "campaign_tags_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_tags" ADD CONSTRAINT "campaign_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "leads" ADD CONSTRAINT "leads_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_uploads" ADD CONSTRAINT "lead_uploads_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_events" ADD CONSTRAINT "lead_events_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lead_labels" ADD CONSTRAINT "lead_labels_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "blocklist_entries" ADD CONSTRAINT "blocklist_entries_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_accounts" ADD CONSTRAINT "email_accounts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_account_tags" ADD CONSTRAINT "email_account_tags_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_account_tags" ADD CONSTRAINT "email_account_tags_tag_id_fkey" FOREIGN KEY ("tag_id") REFERENCES "tags"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_email_accounts" ADD CONSTRAINT "campaign_email_accounts_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "campaign_email_accounts" ADD CONSTRAINT "campaign_email_accounts_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sent_emails" ADD CONSTRAINT "sent_emails_campaign_id_fkey" FOREIGN KEY ("campaign_id") REFERENCES "campaigns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sent_emails" ADD CONSTRAINT "sent_emails_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "leads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sent_emails" ADD CONSTRAINT "sent_emails_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sent_emails" ADD CONSTRAINT "sent_emails_variation_id_fkey" FOREIGN KEY ("variation_id") REFERENCES "variations"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "email_events" ADD CONSTRAINT "email_events_sent_email_id_fkey" FOREIGN KEY ("sent_email_id") REFERENCES "sent_emails"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "unibox_threads" ADD CONSTRAINT "unibox_threads_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "unibox_threads" ADD CONSTRAINT "unibox_threads_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "unibox_messages" ADD CONSTRAINT "unibox_messages_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "unibox_messages" ADD CONSTRAINT "unibox_messages_thread_id_fkey" FOREIGN KEY ("thread_id") REFERENCES "unibox_threads"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "unibox_messages" ADD CONSTRAINT "unibox_messages_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
