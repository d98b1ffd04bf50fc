// The suite's database lives with the database package (@outreach/db/testing), so that
// packages/db's own tests need nothing from core; re-exported here for core's and the gateway's tests.
export { testDatabase, usingPostgres } from '@outreach/db/testing';
