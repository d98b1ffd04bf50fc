import { router } from '../trpc';

export const workspaceSettingsRouter = router({});
