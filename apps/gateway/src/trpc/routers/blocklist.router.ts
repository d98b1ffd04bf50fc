import { router } from '../trpc';

export const blocklistRouter = router({});
