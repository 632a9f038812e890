/// <reference lib="dom" />
/**
 * The apps' REST calls (`/api/account/apps…`, docs/apps.md): the graph has no apps yet, so the portal calls REST for
 * them, same origin, with the session token it signed in with (`Authorization: Bearer`). A refusal is thrown as the
 * pages' one API error ({@link GraphError}: code, message, status), so the portal's session handling and error text
 * apply to it as to the graph's.
 */
import { GraphError, session } from '../../shared/graph.ts';
import type { App, AppVersion, DocumentsPolicy } from './apps-logic.ts';
import { apiFailure, appPath } from './apps-logic.ts';

async function call<T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = session.get();
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (err) {
    throw new GraphError('NETWORK_ERROR', `the server could not be reached: ${String(err)}`, 0);
  }
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  if (!res.ok || json === null) {
    const f = apiFailure(res.status, json);
    throw new GraphError(f.code, f.message, f.status);
  }
  return json as T;
}

export const appsApi = {
  list: () => call<App[]>('GET', appPath()),
  get: (app: string) => call<App>('GET', appPath(app)),
  create: (input: { name: string; origins: string[]; keys: string[] }) =>
    call<App & { publishToken: string }>('POST', appPath(), input),
  setOrigins: (app: string, origins: string[]) => call<App>('PUT', appPath(app, 'origins'), { origins }),
  setKey: (app: string, keyId: string, documents: DocumentsPolicy) =>
    call<App>('PUT', appPath(app, 'keys', keyId), { documents }),
  rotateToken: (app: string) => call<{ publishToken: string }>('POST', appPath(app, 'publish-token')),
  publish: (app: string, body: { version: string; manifest: string; activate: boolean }) =>
    call<AppVersion>('POST', appPath(app, 'versions'), body),
  setActive: (app: string, version: string, active: boolean) =>
    call<AppVersion>('POST', appPath(app, 'versions', version, active ? 'activate' : 'deactivate')),
};
