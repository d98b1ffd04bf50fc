-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "lead_count" INTEGER NOT NULL DEFAULT 0;
