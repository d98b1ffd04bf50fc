// The OAuth callbacks of Google and Microsoft mailboxes (`<PUBLIC_URL>/oauth/callback/google|microsoft`,
// the redirect URIs registered at the providers). Public (no API key): the single-use state in
// the query is the credential. The browser gets a small page saying what happened, or a 302 to
// the `redirect_after` its start asked for.
import express, { type Request, type Response, type Router } from 'express';
import { completeOAuthCallback, type OAuthProvider } from '@outreach/core';
import { httpStatusFor } from './errors/error-map';
import type { GatewayDeps } from './request-context';
import { escapeHtml, sendPage } from './tracking-routes';

const CALLBACKS: [string, OAuthProvider][] = [
  ['/oauth/callback/google', 'GOOGLE_WORKSPACE'],
  ['/oauth/callback/microsoft', 'MICROSOFT365'],
];

export function oauthCallbackRouter(options: { deps: GatewayDeps }): Router {
  const service = options.deps.service;
  const router = express.Router();
  const requestIdOf = (res: Response) => res.locals['requestId'] as string;

  for (const [path, provider] of CALLBACKS) {
    router.get(path, async (req: Request, res: Response) => {
      const requestId = requestIdOf(res);
      const search = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
      try {
        const result = await completeOAuthCallback({ ...service, log: service.log.child({ reqId: requestId }) }, { provider, search });
        if (result.redirectTo) {
          res.status(302).set({ Location: result.redirectTo, 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' }).end();
          return;
        }
        if (result.outcome === 'connected') {
          const address = `<strong>${escapeHtml(result.email)}</strong>`;
          sendPage(res, 200, 'Mailbox connected', `<p>${address} is ${result.reconnected ? 'reconnected' : 'connected'}. You can close this page.</p>`);
          return;
        }
        sendPage(res, httpStatusFor(result.error.kind), 'Mailbox not connected', `<p>${escapeHtml(result.error.message)}</p><p>(${escapeHtml(result.error.code)})</p>`);
      } catch (error) {
        service.log.error({ err: error, reqId: requestId }, 'completing an OAuth authorization failed');
        sendPage(res, 500, 'Something went wrong', `<p>The mailbox could not be connected. Please start again in a moment. (Request id ${escapeHtml(requestId)})</p>`);
      }
    });
  }
  return router;
}
