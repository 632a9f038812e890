/**
 * Incremental delivery (`@defer`, `@stream`; docs/graph.md, "Incremental delivery") over the stream transports
 * (GraphQL over SSE and WebSocket): the engine's `text/event-stream` answer read back as results, handed on one
 * payload at a time.
 */
import type { ExecutionResult } from 'graphql';
import type { PushStream } from './subscriptions/stream.ts';

/**
 * Reads `body` (`text/event-stream`: `next` events, then `complete`) into `into`, pushing each `next` event's result
 * as it arrives and ending `into` with the stream. A reader that leaves (`into` ended first) cancels the body.
 */
export function pushEvents(body: ReadableStream<Uint8Array>, into: PushStream): void {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  into.onEnded(() => void reader.cancel().catch(() => undefined));
  let buffer = '';
  const block = (text: string) => {
    let event = '';
    const data: string[] = [];
    for (const line of text.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (event === 'next' && data.length > 0) into.push(JSON.parse(data.join('\n')) as ExecutionResult);
    else if (event === 'complete') into.end();
  };
  void (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
        let cut;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          block(buffer.slice(0, cut));
          buffer = buffer.slice(cut + 2);
        }
      }
    } catch {
      // the body failed (or was cancelled by the reader): the stream ends with what it delivered
    } finally {
      into.end();
    }
  })();
}
