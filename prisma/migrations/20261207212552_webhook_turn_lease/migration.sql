-- AlterTable
ALTER TABLE "webhooks" ADD COLUMN     "busy_until" TIMESTAMPTZ(3);
