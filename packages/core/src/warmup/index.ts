// The warmup engine (docs/api.md, "Warmup"): the pool, the sending and receiving sides and their
// worker. Its operations (warmup settings, warmup-stats) belong to email-account, which owns the mailboxes.
export { type WarmupRoundResult, type WarmupWorker, runWarmupRound, startWarmupWorker } from './worker.service';
export { type WarmupSendResult, WARMUP_SEND_CONCURRENCY, runWarmupSendTick } from './warmup-send.service';
export { type WarmupScanResult, ARCHIVE_AFTER_MS, MISSING_AFTER_MS, SCAN_EVERY_MS, runWarmupScanTick } from './warmup-scan.service';
export { answers, pickRecipient, poolFor, providerOfMx, rampTarget } from './warmup-pool.rules';
export { customWords, warmupContent } from './warmup-content.rules';
