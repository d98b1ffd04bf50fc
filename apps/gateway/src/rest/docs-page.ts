import type { OpenApiDocument } from './openapi';

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** JSON, with each `$ref` to a named schema linked to its section below. */
function schemaBlock(schema: unknown): string {
  const html = esc(JSON.stringify(schema, null, 2)).replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9_.-]+)&quot;/g,
    (_m, name: string) => `&quot;<a href="#schema-${name}">#/components/schemas/${name}</a>&quot;`,
  );
  return `<pre>${html}</pre>`;
}

function exampleBlock(example: unknown): string {
  return example === undefined ? '' : `<details><summary>example</summary><pre>${esc(JSON.stringify(example, null, 2))}</pre></details>`;
}

/** A self-contained API reference page (no CDN), rendered from the OpenAPI document. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const sections: string[] = [];
  const toc: string[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods as Record<string, Record<string, unknown>>)) {
      const id = esc(`${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-'));
      toc.push(`<li><a href="#${id}"><code>${method.toUpperCase()} ${esc(path)}</code> ${esc(op['summary'])}</a></li>`);
      const params = (op['parameters'] as { name: string; in: string; required: boolean; description?: string; schema: unknown; example?: unknown }[] | undefined) ?? [];
      const paramRows = params
        .map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(p.description ?? '')}${p.example !== undefined ? ` <small>e.g. <code>${esc(JSON.stringify(p.example))}</code></small>` : ''}<details><summary>schema</summary>${schemaBlock(p.schema)}</details></td></tr>`)
        .join('');
      const body = op['requestBody'] as { content: Record<string, { schema: unknown; example?: unknown }> } | undefined;
      type Response = { description: string; content?: Record<string, { schema: unknown; example?: unknown }> };
      const shared = doc.components.responses as Record<string, Response>;
      const responses = Object.fromEntries(
        Object.entries(op['responses'] as Record<string, Response | { $ref: string }>).map(([code, r]) => [code, '$ref' in r ? shared[r.$ref.split('/').pop()!]! : r]),
      );
      sections.push(`<section id="${id}">
<h2><span class="m ${method}">${method.toUpperCase()}</span> <code>/api/v1${esc(path)}</code></h2>
<p><strong>${esc(op['summary'])}</strong>${op['deprecated'] ? ' <em>(deprecated)</em>' : ''} · tRPC <code>${esc(op['x-trpc-procedure'])}</code></p>
${op['description'] ? `<p>${esc(op['description'])}</p>` : ''}
${paramRows ? `<table><tr><th>Parameter</th><th>In</th><th>Required</th><th>Notes</th></tr>${paramRows}</table>` : ''}
${body ? `<h3>Request body</h3>${schemaBlock(body.content['application/json']?.schema)}${exampleBlock(body.content['application/json']?.example)}` : ''}
<h3>Responses</h3><ul>${Object.entries(responses).map(([code, r]) => `<li><code>${code}</code> ${esc(r.description)}${code === '200' && r.content ? schemaBlock(r.content['application/json']?.schema) + exampleBlock(r.content['application/json']?.example) : ''}</li>`).join('')}</ul>
</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:980px;margin:2rem auto;padding:0 1rem;color:#1f2937}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f3f4f6;padding:.75rem;overflow:auto;border-radius:6px}
table{border-collapse:collapse;width:100%}td,th{border:1px solid #e5e7eb;padding:.35rem .5rem;text-align:left;vertical-align:top}
section{border-top:1px solid #e5e7eb;padding-top:1rem;margin-top:1.5rem}.m{font-size:12px;padding:2px 6px;border-radius:4px;color:#fff;background:#6b7280}
.get{background:#2563eb}.post{background:#16a34a}.put,.patch{background:#d97706}.delete{background:#dc2626}</style></head>
<body><h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)}</small></h1>
<p>${esc(doc.info.description)}</p>
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI 3.1). Authentication: header <code>x-api-key</code>.</p>
<h2>Operations</h2><ul>${toc.join('')}</ul>${sections.join('\n')}
<h2>Schemas</h2>${Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<section id="schema-${esc(name)}"><h3><code>${esc(name)}</code></h3>${schemaBlock(schema)}</section>`)
    .join('\n')}</body></html>`;
}
