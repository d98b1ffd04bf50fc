import { operations } from '@outreach/core';
import { operationField } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.workspaceSettings;

operationField('settings', ops.get, { on: Workspace, type: 'WorkspaceSettings' });
operationField('updateWorkspaceSettings', ops.update, { type: 'WorkspaceSettings' });
