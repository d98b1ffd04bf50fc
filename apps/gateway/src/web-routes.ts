// The web app (apps/web, built by `npm run build:web` into apps/web/dist) at `/`: hashed
// assets cached for a year, index.html revalidated on every load, and index.html again for
// the app's own client-side routes (a deep link, a reload). Paths of the APIs and of the
// gateway's other routes are never answered here, so their 404s stay JSON.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

/** Where `npm run build:web` writes the app. */
export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Paths that belong to the APIs and the gateway's own routes: never the app's HTML. */
const NOT_THE_APP = /^\/(api|graphql|trpc|healthz|readyz|metrics|docs|t|oauth|assets)(\/|$)/;

/**
 * The app's page may run only its own bundled scripts; Mantine sets inline styles, so styles
 * allow 'unsafe-inline' (styles only). Nothing is framed, nothing is loaded from elsewhere.
 */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function pageHeaders(res: Response): void {
  res.setHeader('Content-Security-Policy', APP_CSP);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cache-Control', 'no-cache');
}

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Outreach: the web app is not built</title></head>
<body><h1>The web app is not built</h1>
<p>This server has no built web app (apps/web/dist). Run <code>npm run build:web</code> and reload.</p>
<p>The APIs answer meanwhile: <a href="/docs">REST API reference</a>, <code>/graphql</code>, <code>/trpc</code>.</p>
</body></html>`;

export function webRouter(options: { distDir?: string } = {}): Router {
  const dist = options.distDir ?? DEFAULT_WEB_DIST;
  const router = express.Router();
  const indexFile = join(dist, 'index.html');
  // Read on first use and kept: a rebuild while running is picked up on restart. A missing build
  // is looked for again on every request, so building while the server runs just works.
  let indexHtml: string | undefined;
  const index = () => {
    if (indexHtml === undefined && existsSync(indexFile)) indexHtml = readFileSync(indexFile, 'utf8');
    return indexHtml;
  };

  // Vite names every asset by its content hash: one URL, one content, forever.
  router.use(
    '/assets',
    express.static(join(dist, 'assets'), {
      fallthrough: true,
      index: false,
      redirect: false,
      setHeaders: (res) => {
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        res.setHeader('X-Content-Type-Options', 'nosniff');
      },
    }),
  );

  // Files at the root of the build (the favicon); never index.html, which is served below with its headers.
  const rootFiles = express.static(dist, {
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res) => {
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  router.use((req, res, next) => (req.path === '/index.html' ? next() : rootFiles(req, res, next)));

  router.get(/.*/, (req: Request, res: Response, next: NextFunction) => {
    if (NOT_THE_APP.test(req.path) || !req.accepts('html')) return next();
    const html = index();
    pageHeaders(res);
    if (html === undefined) {
      res.status(503).type('html').send(MISSING_BUILD_PAGE);
      return;
    }
    res.status(200).type('html').send(html);
  });
  return router;
}
