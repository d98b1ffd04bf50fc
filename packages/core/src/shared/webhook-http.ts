// POSTs webhook deliveries to their receivers: the webhook worker's side of HTTP, behind a
// port like SMTP and IMAP. Receivers are addresses users choose, so every request goes
// through the outbound guard (a receiver on this machine's own network is refused unless
// allowPrivateTargets), and connects to the vetted address itself (a pinned lookup), so a
// host that resolves differently the second time (DNS rebinding) cannot slip past it.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, resolvePublicTarget, type LookupAll } from './outbound-guard';

/** Bytes of a response body read (the rest is dropped with the connection). */
const RESPONSE_BODY_LIMIT = 2048;

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** The whole request's time: resolution, connection, response and body. */
  timeoutMs: number;
}

export interface WebhookResponse {
  status: number;
  /** Up to 2 KB of the response body. */
  body: string;
}

/** POSTs webhooks (the webhook worker's outbound HTTP). */
export interface WebhookHttp {
  /**
   * POSTs `body` to `url` within `timeoutMs` in all. Does not follow redirects. Answers the
   * status and up to 2 KB of the response body; throws on a refused target
   * (OutboundTargetRefused), a network error or the timeout.
   */
  post(request: WebhookRequest): Promise<WebhookResponse>;
}

export interface WebhookHttpOptions {
  /** Receivers on private, loopback and link-local addresses are allowed (tests and single-machine installs only). */
  allowPrivateTargets?: boolean;
  /** Resolves host names (tests); by default node:dns. */
  lookup?: LookupAll;
}

/** The node:http(s) client: one connection per request (no agent), to the vetted address. */
export function createWebhookHttp(options: WebhookHttpOptions = {}): WebhookHttp {
  const allowPrivate = options.allowPrivateTargets ?? false;
  return {
    post: (request) => postWebhook({ ...request, allowPrivate, lookup: options.lookup }),
  };
}

async function postWebhook(options: WebhookRequest & { allowPrivate: boolean; lookup: LookupAll | undefined }): Promise<WebhookResponse> {
  const controller = new AbortController();
  const timeoutError = new Error(`timed out after ${options.timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timeoutError), options.timeoutMs);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(timeoutError), { once: true });
  });
  aborted.catch(() => undefined);
  try {
    const target = await Promise.race([resolvePublicTarget({ url: options.url, allowPrivate: options.allowPrivate, lookup: options.lookup }), aborted]);
    const { url } = target;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = new Promise<WebhookResponse>((resolve, reject) => {
      const req = send(
        {
          protocol: url.protocol,
          hostname: target.host,
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: options.headers,
          auth: url.username || url.password ? `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` : undefined,
          agent: false,
          lookup: pinnedLookup(target) as never,
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8') });
          };
          res.on('data', (chunk: Buffer) => {
            if (done) return;
            chunks.push(chunk);
            size += chunk.length;
            if (size >= RESPONSE_BODY_LIMIT) {
              finish();
              res.destroy();
            }
          });
          res.on('end', finish);
          res.on('error', (error) => {
            if (!done) reject(error);
          });
        },
      );
      controller.signal.addEventListener('abort', () => req.destroy(timeoutError), { once: true });
      req.on('error', reject);
      req.end(options.body);
    });
    return await Promise.race([request, aborted]);
  } finally {
    clearTimeout(timer);
  }
}
