// GraphiQL served from our own package (@graphql-yoga/render-graphiql ships the GraphiQL
// bundle, its stylesheet and Monaco's workers), never from a CDN: it works offline and
// behind a firewall. The page references its assets under `/graphql/assets/`.
import express, { type Router } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';

/** Asset file name → its content type and the export of @graphql-yoga/render-graphiql/graphiql holding it. */
const FILES = {
  'graphiql.js': { type: 'text/javascript', key: 'js' },
  'graphiql.css': { type: 'text/css', key: 'css' },
  'editor.worker.js': { type: 'text/javascript', key: 'editorWorkerService' },
  'json.worker.js': { type: 'text/javascript', key: 'jsonWorker' },
  'graphql.worker.js': { type: 'text/javascript', key: 'graphqlWorker' },
  'favicon.ico': { type: 'image/x-icon', key: 'favicon' },
} as const;
type FileName = keyof typeof FILES;

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

/**
 * Serves the assets the page references: `GET <base>/<file>`. The 9 MB bundle is loaded on
 * the first request, then kept; express gives each answer an ETag and answers 304 to a
 * request revalidating it. An unknown file falls through to the app's 404.
 */
export function graphiqlAssets(): Router {
  let bundle: Promise<Record<string, string>> | undefined;
  return express.Router().get('/:file', async (req, res, next) => {
    const file = String(req.params['file']);
    if (!Object.hasOwn(FILES, file)) return next();
    const { type, key } = FILES[file as FileName];
    const text = (await (bundle ??= import('@graphql-yoga/render-graphiql/graphiql')))[key]!;
    // The favicon is a data: URL, served as the bytes it holds.
    res.set({ 'Content-Type': type, 'Cache-Control': 'no-cache' }).send(key === 'favicon' ? Buffer.from(text.slice(text.indexOf(',') + 1), 'base64') : text);
  });
}
