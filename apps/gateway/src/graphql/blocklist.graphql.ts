import { operations } from '@outreach/core';
import { connectionField } from './connection';
import { operationField } from './operation-field';
import { Workspace } from './workspace.graphql';

const ops = operations.blocklist;

connectionField('blocklist', ops.list, { on: Workspace, type: 'BlocklistEntry' });
operationField('addBlocklistEntries', ops.addEntries, { type: 'BlocklistAddResult' });
operationField('deleteBlocklistEntries', ops.deleteEntries, { result: 'entries_deleted' });
