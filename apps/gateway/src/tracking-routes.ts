// The links inside sent e-mails: the open pixel and the unsubscribe page with its RFC 8058
// one-click POST. Public (no API key): the MAC in the token is the credential. The pages
// are self-contained (no external assets, so opening one leaks nothing to third parties).
import express, { type Request, type Response, type Router } from 'express';
import { TRACKING_PATHS, describeUnsubscribe, maskEmail, recordOpen, unsubscribeByToken } from '@outreach/core';
import type { GatewayDeps } from './request-context';

/** A 1×1 transparent GIF (43 bytes). */
export const TRANSPARENT_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

const NO_CACHE = 'no-store, no-cache, must-revalidate, private';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A small complete page; `body` is HTML already escaped by the caller. */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f6f7f9;color:#1f2328;margin:0;padding:48px 16px}
main{max-width:440px;margin:0 auto;background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:28px}
h1{font-size:20px;margin:0 0 12px}
p{line-height:1.5;margin:0 0 16px}
button{font:inherit;background:#1f2328;color:#fff;border:0;border-radius:6px;padding:10px 18px;cursor:pointer}
</style>
</head>
<body><main>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>
`;
}

/** Answers a small self-contained page (also the OAuth callback's, oauth-routes.ts). */
export function sendPage(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set({
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
      'Referrer-Policy': 'no-referrer',
      // Inline styles only; the form posts back here; nothing may frame the page.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    })
    .type('html')
    .send(page(title, body));
}

const invalidLink = (res: Response) =>
  sendPage(res, 404, 'Link invalid or expired', '<p>This unsubscribe link is invalid or has expired. If you keep receiving e-mails, reply to one of them and ask to be removed.</p>');

const failed = (res: Response, requestId: string) =>
  sendPage(res, 500, 'Something went wrong', `<p>We could not process your request. Please try again in a moment. (Request id ${escapeHtml(requestId)})</p>`);

export function trackingRouter(options: { deps: GatewayDeps }): Router {
  const service = options.deps.service;
  const router = express.Router();
  const requestIdOf = (res: Response) => res.locals['requestId'] as string;
  const depsFor = (res: Response) => ({ ...service, log: service.log.child({ reqId: requestIdOf(res) }) });

  const sendGif = (res: Response) => {
    res.status(200).set({ 'Content-Type': 'image/gif', 'Content-Length': String(TRANSPARENT_GIF.length), 'Cache-Control': NO_CACHE, Pragma: 'no-cache', Expires: '0' });
  };

  // HEAD (link checkers, some proxies) answers like GET but records nothing: nobody saw the image.
  router.head(`${TRACKING_PATHS.open}/:file`, (_req: Request, res: Response) => {
    sendGif(res);
    res.end();
  });

  // Always the GIF, whatever the token: a broken image in an e-mail helps no one, and an
  // error status would tell a prober which tokens are valid.
  router.get(`${TRACKING_PATHS.open}/:file`, async (req: Request, res: Response) => {
    const token = String(req.params['file'] ?? '').replace(/\.gif$/i, '');
    try {
      await recordOpen({ deps: depsFor(res), token, userAgent: req.get('user-agent') ?? null, ip: req.ip ?? null });
    } catch (error) {
      service.log.error({ err: error, reqId: requestIdOf(res) }, 'recording an open failed');
    }
    sendGif(res);
    res.end(TRANSPARENT_GIF);
  });

  // The page never unsubscribes: mail scanners follow every link with GET.
  router.get(`${TRACKING_PATHS.unsubscribe}/:token`, async (req: Request, res: Response) => {
    try {
      const described = await describeUnsubscribe({ deps: depsFor(res), token: String(req.params['token'] ?? '') });
      if (!described.valid) return invalidLink(res);
      const address = escapeHtml(described.maskedEmail ?? '');
      if (described.alreadyUnsubscribed) {
        return sendPage(res, 200, 'You are unsubscribed', `<p><strong>${address}</strong> is already unsubscribed and will receive no further e-mails from this sender.</p>`);
      }
      // No action attribute: the form posts to this very URL. The field makes the form's
      // body the same as an RFC 8058 one-click request.
      return sendPage(
        res,
        200,
        'Unsubscribe',
        `<p>Stop e-mails from this sender to <strong>${address}</strong>?</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
      );
    } catch (error) {
      service.log.error({ err: error, reqId: requestIdOf(res) }, 'showing the unsubscribe page failed');
      return failed(res, requestIdOf(res));
    }
  });

  // RFC 8058 one-click (`List-Unsubscribe=One-Click`, form-encoded), the page's own form,
  // or an empty body: the body is not read, the token alone decides. Never a redirect.
  router.post(`${TRACKING_PATHS.unsubscribe}/:token`, async (req: Request, res: Response) => {
    try {
      const result = await unsubscribeByToken({ deps: depsFor(res), token: String(req.params['token'] ?? '') });
      if (result.status === 'invalid') return invalidLink(res);
      const address = escapeHtml(maskEmail(result.email ?? ''));
      return sendPage(
        res,
        200,
        'You are unsubscribed',
        result.status === 'unsubscribed'
          ? `<p><strong>${address}</strong> has been unsubscribed and will receive no further e-mails from this sender.</p>`
          : `<p><strong>${address}</strong> is already unsubscribed and will receive no further e-mails from this sender.</p>`,
      );
    } catch (error) {
      service.log.error({ err: error, reqId: requestIdOf(res) }, 'unsubscribing failed');
      return failed(res, requestIdOf(res));
    }
  });

  return router;
}
