// GraphQL fields of the client-access operations (organization keys only).
import { operations } from '@outreach/core';
import { operationField } from './operation-field';

const ops = operations.client;
const types = { client_permissions: 'ClientGrant', workspaces: 'ClientWorkspaceGrant' };
const names = { client_id: 'id', client_email: 'email', client_first_name: 'firstName', client_last_name: 'lastName', client_business_name: 'businessName', client_permissions: 'grants' };
const inputs = { types, names: { ...names, client_id: 'clientId', client_permissions: 'permissions' } };

operationField('clients', ops.list, { result: 'clients', type: 'Client', names, types });
operationField('createClient', ops.create, { ...inputs, type: 'CreateClientResult' });
operationField('updateClientPermissions', ops.updatePermissions, inputs);
operationField('setClientStatus', ops.setStatus, inputs);
operationField('deleteClient', ops.delete, inputs);
