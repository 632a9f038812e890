/**
 * `coinwallet apps publish|activate`: a CI job publishes its generated documents as a version of its app
 * (docs/apps.md), through the running server's `/api/account/apps/{app}/versions` with the app's publish token. The
 * file is sent as written: the server judges it (JSON, size, hashes, schema, cost) and names the document it refuses.
 */
import { readFileSync } from 'node:fs';
import { callServer, serverFor } from './admin-client.ts';
import type { Args } from './args.ts';
import { UsageError } from './args.ts';
import type { Command } from './command.ts';
import { APPS } from './specs.ts';

export const apps: Command = {
  spec: APPS,
  async run({ flags, positional }: Args, config) {
    const [sub, ...rest] = positional;
    if (sub !== 'publish' && sub !== 'activate')
      throw new UsageError(
        'apps needs: publish --app NAME --version V [--activate] FILE | activate --app NAME --version V',
      );
    const app = required(flags, 'app');
    const version = required(flags, 'version');
    const token =
      typeof flags.token === 'string' ? flags.token : (process.env.COINWALLET_PUBLISH_TOKEN ?? '');
    if (!token)
      throw new UsageError(`apps ${sub} needs the app's publish token: COINWALLET_PUBLISH_TOKEN or --token`);
    if (rest.length !== (sub === 'publish' ? 1 : 0))
      throw new UsageError(
        sub === 'publish' ? 'apps publish needs one FILE' : `unexpected argument ${rest[0]}`,
      );
    const explicit = typeof flags.url === 'string' ? flags.url : process.env.COINWALLET_URL || undefined;
    const base = explicit ?? (await serverFor(await config(), undefined));
    const path = `/api/account/apps/${encodeURIComponent(app)}/versions`;
    const result =
      sub === 'publish'
        ? await post(base, path, token, {
            version,
            manifest: readManifest(rest[0] as string),
            ...(flags.activate === true ? { activate: true } : {}),
          })
        : await post(base, `${path}/${encodeURIComponent(version)}/activate`, token, undefined);
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return 0;
  },
};

function required(flags: Record<string, string | boolean>, name: string): string {
  const v = flags[name];
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
}

function readManifest(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

const post = (base: string, path: string, token: string, body: unknown): Promise<unknown> =>
  callServer(base, token, 'POST', path, body);
