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
  if (n.keyId === undefined && n.refusal === undefined) return;
  const prev = notes.get(request);
  if (!prev) {
    notes.set(request, { keyId: n.keyId, refusal: n.refusal });
    return;
  }
  if (n.keyId !== undefined) prev.keyId = n.keyId;
  if (n.refusal !== undefined) prev.refusal = n.refusal;
}

const NOTHING: RequestNotes = Object.freeze({});

export function requestNotesOf(request: object): RequestNotes {
  return notes.get(request) ?? NOTHING;
}
