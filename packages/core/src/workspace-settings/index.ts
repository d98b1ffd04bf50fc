// The operations of this domain, keyed as their tRPC procedures are (`workspaceSettings.<key>`).
import { getWorkspaceSettings, updateWorkspaceSettings } from './workspace-settings.operations';

export const workspaceSettingsOperations = {
  get: getWorkspaceSettings,
  update: updateWorkspaceSettings,
} as const;
