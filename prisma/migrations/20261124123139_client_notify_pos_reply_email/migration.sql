-- AlterTable
ALTER TABLE "clients" ADD COLUMN     "notify_pos_reply_email" TEXT NOT NULL DEFAULT '';
