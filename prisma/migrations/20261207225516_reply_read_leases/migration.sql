-- CreateTable
CREATE TABLE "mailbox_readers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mailbox_readers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mailbox_read_leases" (
    "email_account_id" TEXT NOT NULL,
    "reader_id" TEXT NOT NULL,
    "taken_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "mailbox_read_leases_pkey" PRIMARY KEY ("email_account_id")
);

-- CreateIndex
CREATE INDEX "mailbox_read_leases_reader_id_idx" ON "mailbox_read_leases"("reader_id");

-- AddForeignKey
ALTER TABLE "mailbox_read_leases" ADD CONSTRAINT "mailbox_read_leases_email_account_id_fkey" FOREIGN KEY ("email_account_id") REFERENCES "email_accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mailbox_read_leases" ADD CONSTRAINT "mailbox_read_leases_reader_id_fkey" FOREIGN KEY ("reader_id") REFERENCES "mailbox_readers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
