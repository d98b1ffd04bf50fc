-- AlterTable
ALTER TABLE "email_accounts" ADD COLUMN     "warmup_advanced" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "warmup_custom_words" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "warmup_increment" INTEGER NOT NULL DEFAULT 2,
ADD COLUMN     "warmup_limit" INTEGER NOT NULL DEFAULT 20,
ADD COLUMN     "warmup_reply_rate" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "warmup_scanned_at" TIMESTAMPTZ(3),
ADD COLUMN     "warmup_signature" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "warmup_started_at" TIMESTAMPTZ(3);

-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "warmup_shared_pool" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "warmup_messages" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "sender_account_id" TEXT NOT NULL,
    "recipient_account_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "thread_id" TEXT NOT NULL,
    "in_reply_to" TEXT,
    "references" TEXT NOT NULL DEFAULT '',
    "subject" TEXT NOT NULL,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "recipient_provider" TEXT NOT NULL DEFAULT 'OTHER',
    "sent_at" TIMESTAMPTZ(3) NOT NULL,
    "placement" TEXT NOT NULL DEFAULT 'PENDING',
    "placed_at" TIMESTAMPTZ(3),
    "folder" TEXT,
    "rescued_at" TIMESTAMPTZ(3),
    "replied_at" TIMESTAMPTZ(3),
    "reply_decided_at" TIMESTAMPTZ(3),
    "archived_at" TIMESTAMPTZ(3),

    CONSTRAINT "warmup_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailbox_health_snapshots" (
    "id" TEXT NOT NULL,
    "email_account_id" TEXT NOT NULL,
    "workspace_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "score" INTEGER NOT NULL,
    "inputs" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mailbox_health_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "warmup_messages_sender_account_id_sent_at_idx" ON "warmup_messages"("sender_account_id", "sent_at");

-- CreateIndex
CREATE INDEX "warmup_messages_workspace_id_sent_at_idx" ON "warmup_messages"("workspace_id", "sent_at");

-- CreateIndex
CREATE INDEX "warmup_messages_recipient_account_id_placement_idx" ON "warmup_messages"("recipient_account_id", "placement");

-- CreateIndex
CREATE UNIQUE INDEX "warmup_messages_code_key" ON "warmup_messages"("code");

-- CreateIndex
CREATE UNIQUE INDEX "mailbox_health_snapshots_email_account_id_day_key" ON "mailbox_health_snapshots"("email_account_id", "day");

-- AddForeignKey
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_sender_account_id_fkey" FOREIGN KEY ("sender_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "warmup_messages" ADD CONSTRAINT "warmup_messages_recipient_account_id_fkey" FOREIGN KEY ("recipient_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailbox_health_snapshots" ADD CONSTRAINT "mailbox_health_snapshots_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
