// GraphiQL served from our own package (@graphql-yoga/render-graphiql ships the GraphiQL
// bundle, its stylesheet and Monaco's workers), never from a CDN: it works offline and
// behind a firewall. The page is small and references its assets under
// `/graphql/assets/`; they are read from the package only once GraphiQL is asked for.
import express, { type Request, type Response, type Router } from 'express';
import { createHash } from 'node:crypto';
import type { GraphiQLOptions } from 'graphql-yoga';

interface Asset {
  type: string;
  body: Buffer;
  etag: string;
}

/** Asset file name → the export of @graphql-yoga/render-graphiql/graphiql holding it. */
const FILES = {
  'graphiql.js': { type: 'text/javascript', key: 'js' },
  'graphiql.css': { type: 'text/css', key: 'css' },
  'editor.worker.js': { type: 'text/javascript', key: 'editorWorkerService' },
  'json.worker.js': { type: 'text/javascript', key: 'jsonWorker' },
  'graphql.worker.js': { type: 'text/javascript', key: 'graphqlWorker' },
  'favicon.ico': { type: 'image/x-icon', key: 'favicon' },
} as const;
type FileName = keyof typeof FILES;

let loading: Promise<Map<string, Asset>> | undefined;
/** The bundle is 9 MB: loaded on the first GraphiQL request, then kept. */
function assets(): Promise<Map<string, Asset>> {
  loading ??= import('@graphql-yoga/render-graphiql/graphiql').then((bundle) => {
    const files = new Map<string, Asset>();
    for (const [name, { type, key }] of Object.entries(FILES)) {
      const text = bundle[key];
      // The favicon is a data: URL; served as the bytes it holds.
      const body = key === 'favicon' ? Buffer.from(text.slice(text.indexOf(',') + 1), 'base64') : Buffer.from(text, 'utf8');
      files.set(name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
    }
    return files;
  });
  return loading;
}

/** `<` escaped, so that no value can close the inline script. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The GraphiQL page (yoga's `renderGraphiQL`): every script, style and worker from `base` (ours). */
export function graphiqlPage(base: string) {
  const url = (file: FileName) => `${base}/${file}`;
  return (options: GraphiQLOptions): string => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${url('favicon.ico')}" />
    <link rel="stylesheet" href="${url('graphiql.css')}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script>
      self['MonacoEnvironment'] = {
        globalAPI: false,
        getWorkerUrl: (_moduleId, label) => (${scriptJson({ editorWorkerService: url('editor.worker.js'), json: url('json.worker.js'), graphql: url('graphql.worker.js') })})[label],
      };
    </script>
    <script src="${url('graphiql.js')}"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(window.document.querySelector('#root'), ${scriptJson(options)});
    </script>
  </body>
</html>
`;
}

/** Serves the assets the page references: `GET <base>/<file>`, revalidated by ETag. */
export function graphiqlAssets(): Router {
  const router = express.Router();
  router.get('/:file', async (req: Request, res: Response) => {
    const asset = Object.hasOwn(FILES, String(req.params['file'])) ? (await assets()).get(String(req.params['file'])) : undefined;
    if (!asset) {
      res.status(404).json({ status: 'error', message: `no such path: ${req.method} ${req.originalUrl.split('?')[0]}`, code: 'request.unknown_path' });
      return;
    }
    // Express answers 304 to a request whose If-None-Match holds this ETag.
    res.set({ 'Content-Type': asset.type, 'Cache-Control': 'no-cache', ETag: asset.etag }).send(asset.body);
  });
  return router;
}
