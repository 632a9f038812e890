/**
 * What the request gate learnt of a request, noted by the transport that ran it (REST's access hook, the router's
 * mount) for the process's access line, metrics and server span: keyed by the request object, gone with it. Only a
 * key's id is kept, never the key.
 */
export interface RequestNotes {
  /** The id of the API key the request sent, when it is a known key. */
  keyId?: string | undefined;
  /** The code of the refusal that answered it (`API_KEY_REVOKED`, `RATE_LIMITED`, `COST_ESTIMATED_TOO_EXPENSIVE`…). */
  refusal?: string | undefined;
}

const notes = new WeakMap<object, RequestNotes>();

/** Adds `n`'s defined fields to what is noted of `request`. */
export function noteRequest(request: object, n: RequestNotes): void {
  const prev = notes.get(request);
  const next: RequestNotes = { ...prev };
  if (n.keyId !== undefined) next.keyId = n.keyId;
  if (n.refusal !== undefined) next.refusal = n.refusal;
  if (next.keyId !== undefined || next.refusal !== undefined) notes.set(request, next);
}

export function requestNotesOf(request: object): RequestNotes {
  return notes.get(request) ?? {};
}
