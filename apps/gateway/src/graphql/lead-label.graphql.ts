import { operations } from '@outreach/core';
import { operationField } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.leadLabel;

operationField('leadLabels', ops.list, { on: Workspace, type: 'LeadLabel' });
operationField('addLeadLabel', ops.add, { type: 'LeadLabel' });
operationField('deleteLeadLabels', ops.delete, { result: 'deleted_count' });
