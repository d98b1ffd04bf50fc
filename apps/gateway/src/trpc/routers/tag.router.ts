import { router } from '../trpc';

export const tagRouter = router({});
