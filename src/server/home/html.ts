/**
 * The landing page's HTML: a static document (no script; styles inline, which the pages' CSP allows) rendered from
 * {@link Home}. Every value is escaped where it is written, so nothing from the server's state or the request (the
 * origin in the install command) can become markup.
 */
import type { Home } from './model.ts';
import { DOC_GROUPS } from '../docs/pages.ts';
import type { DocGroup } from '../docs/pages.ts';

/** Text as HTML text or a double- or single-quoted attribute value. */
export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const e = escapeHtml;
const a = (href: string, text: string): string => `<a href="${e(href)}">${e(text)}</a>`;
const code = (text: string): string => `<code>${e(text)}</code>`;

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2330}
h1{margin-bottom:0}h2{margin-top:2rem;border-bottom:1px solid #dde;padding-bottom:.2rem}
code,pre{font-family:ui-monospace,monospace;background:#f3f4f8;border-radius:4px}code{padding:0 .25em}
pre{padding:.6rem .8rem;overflow-x:auto}table{border-collapse:collapse}td,th{padding:.15rem .8rem .15rem 0;text-align:left}
.dataset{display:inline-block;padding:.1rem .5rem;border-radius:4px;background:#fff4d6}.live{background:#dff5e3}
.muted{color:#667}`;

function datasetLine(h: Home): string {
  const label =
    h.dataset === 'demo'
      ? 'Demo data: generated, not real market data'
      : h.dataset === 'live'
        ? 'Live data from the configured sources'
        : 'Starting: loading the market data';
  const notice = h.notice ? ` <span class="muted">${e(h.notice)}</span>` : '';
  return `<p><span class="dataset ${e(h.dataset)}">${e(label)}</span>${notice}</p>`;
}

function apis(h: Home): string {
  const extra = (base: string): string[] => {
    if (base === h.links.priceApi) return [a(h.links.openapi, 'OpenAPI 3.1 document')];
    if (base === h.links.graphql && h.links.graphqlSchema)
      return [a(h.links.graphql, 'endpoint'), a(h.links.graphqlSchema, 'schema (SDL)')];
    return [];
  };
  const titleOf = new Map(h.docs.map((d) => [d.href, d.title]));
  const items = h.apis.map((api) => {
    const links = [...extra(api.base), ...api.docs.map((d) => a(d, titleOf.get(d) ?? d))];
    return `<li><strong>${e(api.name)}</strong> at ${code(api.base)}: ${links.join(' · ')}</li>`;
  });
  const all = `<li>${a(h.links.openapiAll, 'OpenAPI 3.1 document of every REST API')} (one file for client generators)</li>`;
  return `<ul>\n${all}\n${items.join('\n')}\n</ul>`;
}

function kits(h: Home): string {
  const missing = h.kits.packages.filter((p) => !p.built).length;
  const note = missing
    ? `<p><strong>${missing} of ${h.kits.packages.length} kits are not built on this server</strong>: run ${code('npm run build:kits')} in the product's directory.</p>\n`
    : '';
  const rows = h.kits.packages.map(
    (p) =>
      `<tr><td>${code(p.name)}</td><td>${e(p.coin && p.ticker ? `${p.coin} (${p.ticker})` : 'every kit coin')}</td><td>${a(p.href, p.href)}</td>` +
      `<td>${p.built ? '' : '<span class="muted">not built</span>'}</td></tr>`,
  );
  return `<p>Install a kit from this server (no registry needed: the kits have no dependencies), the complete kit or one
coin's (<code>kit-ltc.tgz</code>, …):</p>
<pre><code>${e(h.kits.install)}</code></pre>
${note}<table>
<tr><th>package</th><th>coin</th><th>tarball</th><th></th></tr>
${rows.join('\n')}
</table>`;
}

function docs(h: Home): string {
  const groups = Object.entries(DOC_GROUPS) as [DocGroup, string][];
  return groups
    .map(([g, title]) => {
      const items = h.docs.filter((d) => d.group === g).map((d) => `<li>${a(d.href, d.title)}</li>`);
      return `<h3>${e(title)}</h3>\n<ul>\n${items.join('\n')}\n</ul>`;
    })
    .join('\n');
}

/** The landing page of `h`. */
export function homeHtml(h: Home): string {
  const L = h.links;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(h.product)} ${e(h.version)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${e(h.product)}</h1>
<p>Version ${e(h.version)} · the price API, name resolution, the bridge's read endpoints, accounts and one GraphQL graph over all of it.</p>
${datasetLine(h)}
<h2>Pages</h2>
<ul>
<li>${a(L.portal, 'Developer portal')}: sign in with Coin Wallet, request API keys, watch their usage, submit dapps</li>
<li>${a(L.admin, 'Admin dashboard')}: review keys and dapps, service health</li>
</ul>
<h2>APIs</h2>
${apis(h)}
<h2>Kits</h2>
${kits(h)}
<h2>Scripts</h2>
<ul>
<li>${a(L.provider, L.provider)}: the wallet provider a dapp loads before the kit</li>
<li>${a(L.miningWidget, L.miningWidget)}: the embeddable mining calculator</li>
</ul>
<h2>Health</h2>
<ul>
<li>${a(L.healthz, L.healthz)}: readiness with every source's freshness</li>
<li>${a(L.livez, L.livez)}: 200 while the process runs</li>
<li>${a(L.readyz, L.readyz)}: 200 only when ready to serve</li>
</ul>
<h2>Documentation</h2>
${docs(h)}
<p class="muted">This page as JSON: ${code("curl -H 'accept: application/json' <this server>/")}</p>
</body>
</html>
`;
}
