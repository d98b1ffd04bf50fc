import { router } from '../trpc';

export const additionalFieldRouter = router({});
