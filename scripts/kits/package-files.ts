/** A kit package's README.md (from src/kit/README.template.md) and package.json. */
import { BROWSER_BUNDLE } from './paths.ts';
import type { KitSpec } from './specs.ts';

/** `{{name}}` placeholders and `{{#coin}}…{{/coin}}` / `{{^coin}}…{{/coin}}` sections (kept / dropped). */
export function renderTemplate(
  template: string,
  vars: Record<string, string>,
  flags: Record<string, boolean>,
): string {
  let out = template.replace(/^<!--[^]*?-->\n+/, ''); // the template's own comment
  for (const [flag, on] of Object.entries(flags)) {
    // A section marker stands on a line of its own (indentation allowed); the lines between are kept or dropped.
    const section = (open: string) =>
      new RegExp(
        `^[ \\t]*\\{\\{\\${open}${flag}\\}\\}[ \\t]*\\n([^]*?)^[ \\t]*\\{\\{/${flag}\\}\\}[ \\t]*\\n`,
        'gm',
      );
    out = out
      .replace(section('#'), (_m, body: string) => (on ? body : ''))
      .replace(section('^'), (_m, body: string) => (on ? '' : body));
  }
  out = out.replace(/\{\{(\w+)\}\}/g, (m, k: string) => {
    const v = vars[k];
    if (v === undefined) throw new Error(`README template: no value for ${m}`);
    return v;
  });
  return out;
}

export function packageJson(spec: KitSpec, version: string, license: string, hasProvider: boolean): string {
  const files = ['index.js', 'index.d.ts', 'types/', BROWSER_BUNDLE, 'persisted-documents.json', 'README.md'];
  if (hasProvider) files.splice(4, 0, 'provider.js');
  if (!spec.coin) files.push('example/');
  const pkg = {
    name: spec.name,
    version,
    description: spec.coin
      ? `Coin Wallet kit for ${spec.coin.name} (${spec.coin.ticker}): connect the wallet, resolve names, read prices.`
      : 'Coin Wallet kit: connect the wallet, resolve names and read prices for the 19 Coin Wallet coins.',
    type: 'module',
    main: './index.js',
    module: './index.js',
    types: './index.d.ts',
    exports: {
      '.': { types: './index.d.ts', import: './index.js', default: './index.js' },
      './browser': `./${BROWSER_BUNDLE}`,
      ...(hasProvider ? { './provider.js': './provider.js' } : {}),
      './persisted-documents.json': './persisted-documents.json',
      './package.json': './package.json',
    },
    unpkg: `./${BROWSER_BUNDLE}`,
    jsdelivr: `./${BROWSER_BUNDLE}`,
    files,
    sideEffects: false,
    engines: { node: '>=18' },
    keywords: [
      'coinwallet',
      'wallet',
      'dapp',
      'eip-1193',
      'names',
      'prices',
      ...(spec.coin ? [spec.coin.ticker.toLowerCase()] : []),
    ],
    license,
    publishConfig: { access: 'public' },
  };
  return JSON.stringify(pkg, null, 2) + '\n';
}
