import type { Operation } from './openapi.ts';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const json = (value: unknown) => `<pre>${escape(JSON.stringify(value, null, 2))}</pre>`;

/**
 * The browsable API reference at /api/docs: every operation of the contract grouped by tag,
 * with its parameters, body and responses. Rendered on the server, no scripts.
 */
export function renderApiDocs(title: string, operations: Operation[]): string {
  const tags = [...new Set(operations.map((o) => o.tag))];
  const section = (tag: string) => {
    const ops = operations.filter((o) => o.tag === tag);
    return `<section id="${escape(tag)}"><h2>${escape(tag)}</h2>${ops.map(operation).join('')}</section>`;
  };
  const operation = (op: Operation) => {
    const { body, querystring, params } = op.request;
    const parts = [
      params && `<h4>Path parameters</h4>${json(params.properties)}`,
      querystring && `<h4>Query parameters</h4>${json(querystring.properties)}`,
      body && `<h4>Body (${escape(op.request.bodyType ?? '')})</h4>${json(body)}`,
      !body && op.request.bodyType && `<h4>Body</h4><p>${escape(op.request.bodyType)}</p>`,
      `<h4>Responses</h4>${Object.entries(op.responses)
        .map(
          ([status, content]) =>
            `<details><summary>${escape(status)} ${escape(Object.keys(content).join(', '))}</summary>${Object.values(
              content,
            )
              .map((s) => (s ? json(s) : ''))
              .join('')}</details>`,
        )
        .join('')}`,
    ];
    return `<article id="${escape(op.operationId)}"><h3><code>${op.method} ${escape(op.path)}</code> <small>${escape(op.operationId)}</small></h3>
<p>${op.security.length ? `Authentication: ${escape(op.security.join(' or '))}` : 'Public'}</p>${parts.filter(Boolean).join('')}</article>`;
  };
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:1rem 2rem;color:#1d1d1f}
nav a{margin-right:1rem}article{border-top:1px solid #ddd;padding:.5rem 0}pre{background:#f5f5f7;padding:.5rem;overflow:auto;font-size:13px}
h3 small{color:#666;font-weight:normal}@media (prefers-color-scheme:dark){body{background:#111;color:#eee}pre{background:#222}}
</style></head><body><header><h1>${escape(title)}</h1><p>${operations.length} operations. The document itself: <a href="/api/openapi.yaml">/api/openapi.yaml</a>.</p>
<nav aria-label="Tags">${tags.map((t) => `<a href="#${escape(t)}">${escape(t)}</a>`).join('')}</nav></header><main>${tags.map(section).join('')}</main></body></html>`;
}
