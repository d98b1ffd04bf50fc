// GraphQL fields of the done-for-you operations.
import { operations } from '@outreach/core';
import { operationField } from './operation-field';

operationField('generateSenderIdentities', operations.dfy.generateSenderIdentities, { result: 'senders', type: 'SenderIdentity', types: { profiles: 'SenderProfile' } });
