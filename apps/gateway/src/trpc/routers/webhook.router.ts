import { router } from '../trpc';

export const webhookRouter = router({});
