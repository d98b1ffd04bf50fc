export { testDatabase, usingPostgres } from './database';
