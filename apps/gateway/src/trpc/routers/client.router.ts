import { router } from '../trpc';

export const clientRouter = router({});
