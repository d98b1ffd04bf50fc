// GraphQL fields of the placement-test operations.
import { operations } from '@outreach/core';
import { operationField } from './operation-field';

operationField('recipientProviders', operations.placement.recipientProviders, { result: 'data', type: 'RecipientProviderGroup', types: { items: 'RecipientProvider' } });
