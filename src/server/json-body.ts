/**
 * `application/json` bodies on a Fastify server: Fastify's own JSON parser (its prototype-poisoning rules, its
 * `INVALID_JSON` / empty-body errors) over the body's bytes checked as UTF-8 first (`src/core/utf8.ts`), so a body
 * with invalid UTF-8 is `400 INVALID_JSON` instead of being decoded with replacement characters and stored.
 */
import type { FastifyInstance } from 'fastify';
import { utf8Body } from '../core/utf8.ts';

export function strictJsonBodies(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser(
    app.initialConfig.onProtoPoisoning ?? 'error',
    app.initialConfig.onConstructorPoisoning ?? 'error',
  );
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body: Buffer, done) => {
    let text: string;
    try {
      text = utf8Body(body);
    } catch (e) {
      done(e as Error, undefined);
      return;
    }
    json(req, text, done);
  });
}
