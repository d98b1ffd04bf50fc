// GraphQL fields of the account operations (domain vitals).
import { operations } from '@outreach/core';
import { operationField } from './operation-field';

operationField('testDomainVitals', operations.account.testVitals, { type: 'DomainVitalsReport', types: { success_list: 'DomainVitals', failure_list: 'DomainVitalsFailure' } });
