export { createDatabase, databaseUrlProblem, redactUrl, type Database, type DatabaseOptions } from './client';
export { applyMigrations, pendingMigrations, diffMigrationsToSchema, createMigration } from './migrate';
export { newId, isObjectId } from './ids';
export { prepared } from './statement-names';
export { classifyPrismaError, concurrentChangeOf, isDeadlock, isForeignKeyViolation, type ConcurrentChange, type PrismaErrorClass } from './errors';
export { Prisma, PrismaClient } from './generated/prisma/client';
export * from './generated/prisma/enums';
export type * from './generated/prisma/models';
export type Tx = import('./generated/prisma/client').Prisma.TransactionClient;
