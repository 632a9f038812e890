/**
 * Which API key a request used, noted by the transport that checked it (REST's access hook, the router's mount) for
 * the process's access line and server span: keyed by the request object, gone with it. Only the key's id is kept,
 * never the key.
 */
const keyIds = new WeakMap<object, string>();

export function noteKeyId(request: object, keyId: string | undefined): void {
  if (keyId !== undefined) keyIds.set(request, keyId);
}

/** The first 8 characters of the noted key id: enough to tell keys apart in logs, short enough to scan. */
export function keyIdPrefixOf(request: object): string | undefined {
  return keyIds.get(request)?.slice(0, 8);
}
