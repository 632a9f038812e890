/**
 * Plain clients of the router's two stream transports, for tests that look at the wire: GraphQL over SSE (a fetch
 * reading `text/event-stream`, the graphql-sse protocol's distinct connections mode) and GraphQL over WebSocket (a
 * `ws` socket speaking graphql-transport-ws). Every wait has a deadline, so a missing event fails the test instead
 * of hanging it.
 */
import WebSocket from 'ws';

export interface StreamEvent {
  event: 'next' | 'complete';
  data: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; extensions?: Record<string, unknown> }[];
    extensions?: Record<string, unknown>;
  } | null;
}

/** Values pushed by one side, awaited one at a time by the other, each within a deadline. */
class Inbox<T> {
  private readonly items: T[] = [];
  private waiter: ((v: T) => void) | null = null;
  push(v: T): void {
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w(v);
    } else this.items.push(v);
  }
  next(ms: number, what: string): Promise<T> {
    const v = this.items.shift();
    if (v !== undefined) return Promise.resolve(v);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`no ${what} within ${ms} ms`));
      }, ms);
      this.waiter = (x) => {
        clearTimeout(timer);
        resolve(x);
      };
    });
  }
  /** What arrived and was not read yet. */
  pending(): number {
    return this.items.length;
  }
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** The JSON body of a refusal (not an event stream). */
  refusal: { errors?: { message: string; extensions?: Record<string, unknown> }[] } | null;
  next(ms?: number): Promise<StreamEvent>;
  /** Resolves when the response ends: `cut` when it ended without a `complete` event. */
  ended: Promise<{ cut: boolean }>;
  pending(): number;
  close(): void;
}

export async function openSse(
  url: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<SseStream> {
  const ac = new AbortController();
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
    body: JSON.stringify(body),
    signal: ac.signal,
  });
  const inbox = new Inbox<StreamEvent>();
  if (!(r.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const refusal = (await r.json()) as SseStream['refusal'];
    return {
      status: r.status,
      headers: r.headers,
      refusal,
      next: () => Promise.reject(new Error('a refusal has no events')),
      ended: Promise.resolve({ cut: false }),
      pending: () => 0,
      close: () => undefined,
    };
  }
  const reader = (r.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const ended = (async () => {
    let buffer = '';
    let completed = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let i: number;
        while ((i = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          if (!event) continue; // a keep-alive comment
          const data = /^data:(.*)$/m.exec(block)?.[1]?.trim() ?? '';
          const parsed: StreamEvent = {
            event: event as StreamEvent['event'],
            data: data ? (JSON.parse(data) as StreamEvent['data']) : null,
          };
          if (parsed.event === 'complete') completed = true;
          inbox.push(parsed);
        }
      }
    } catch {
      // aborted or cut
    }
    return { cut: !completed };
  })();
  return {
    status: r.status,
    headers: r.headers,
    refusal: null,
    next: (ms = 20_000) => inbox.next(ms, 'SSE event'),
    ended,
    pending: () => inbox.pending(),
    close: () => ac.abort(),
  };
}

export interface WsMessage {
  type: string;
  id?: string;
  payload?: unknown;
}

export interface WsConnection {
  /** The server's answer to `connection_init`: ack, or the close code and reason. */
  ready: Promise<{ ack: true } | { code: number; reason: string }>;
  send(message: WsMessage): void;
  /** The next message (of any operation). */
  next(ms?: number): Promise<WsMessage>;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export function openWs(
  url: string,
  params: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): WsConnection {
  const ws = new WebSocket(url, 'graphql-transport-ws', { headers });
  const inbox = new Inbox<WsMessage>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const ready = new Promise<{ ack: true } | { code: number; reason: string }>((resolve) => {
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: params })));
    ws.on('message', (raw: Buffer) => {
      const m = JSON.parse(raw.toString()) as WsMessage;
      if (m.type === 'connection_ack') resolve({ ack: true });
      else inbox.push(m);
    });
    void closed.then(resolve);
  });
  return {
    ready,
    send: (m) => ws.send(JSON.stringify(m)),
    next: (ms = 20_000) => inbox.next(ms, 'WebSocket message'),
    closed,
    close: () => ws.close(),
  };
}
