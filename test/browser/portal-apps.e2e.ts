/// <reference lib="dom" />
/**
 * The portal's Apps section (src/web/pages/portal/apps*.tsx) end to end in real Chromium, on the whole product in
 * process (one for the file, portal-harness.ts), inside the dapp-browser emulator whose wallet signs in:
 *
 * - a key requested in the portal and approved by the operator;
 * - registering an app: an origin written as a browser would not send it is flagged before anything is sent; the app
 *   with an origin and the key; its publish token shown once (not after a reload); the same name again is refused
 *   with APP_EXISTS;
 * - publishing the committed client's persisted-documents.json as a file: the version listed with its document count,
 *   inactive, then activated; the same version again is refused with VERSION_EXISTS; a manifest whose hash does not
 *   match its body is refused with DOCUMENT_HASH_MISMATCH naming the document;
 * - the key switched to trusted-only: the router then refuses an arbitrary query with that key
 *   (PERSISTED_QUERY_NOT_IN_LIST) and runs a published document by its id, and refuses a listed key's request from an
 *   origin the app does not list (ORIGIN_NOT_ALLOWED);
 * - axe-core with no serious or critical violation, screenshots at 1280 and 360 px without horizontal scrolling.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { post } from '../support/wallet.ts';
import { ADMIN_TOKEN } from './support.ts';
import {
  expectAccessible,
  inEmulator,
  platform,
  portalFrame,
  refresh,
  shot,
  signIn,
  usePortalHarness,
} from './portal-harness.ts';

usePortalHarness();

const MANIFEST = join(
  import.meta.dirname,
  '..',
  '..',
  'clients',
  'graph',
  'generated',
  'persisted-documents.json',
);
const DOCUMENTS = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
const ORIGIN = 'https://my-dapp.example';

/** A POST to the graph with the API key (and an Origin when given), as a dapp's page or server would send it. */
async function graph(key: string, body: object, origin?: string): Promise<{ status: number; code?: string }> {
  const res = await fetch(`${platform.url}/graphql`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-sp-api-key': key,
      ...(origin ? { origin } : {}),
    },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { errors?: { extensions?: { code?: string } }[] };
  const code = json.errors?.[0]?.extensions?.code;
  return code === undefined ? { status: res.status } : { status: res.status, code };
}

/** The portal's key form: a free key, its secret read from the dialog (then closed), approved by the operator. */
async function approvedKey(page: Page, frame: Frame): Promise<{ key: string; id: string }> {
  await frame.getByTestId('key-description').fill('Frontend of my-dapp.example (trusted documents only)');
  await frame.getByTestId('request-key').click();
  await frame.getByTestId('key-dialog').waitFor({ state: 'visible' });
  const key = await frame.getByTestId('new-key').inputValue();
  await page.keyboard.press('Escape');
  await frame.getByTestId('key-dialog').waitFor({ state: 'hidden' });
  const id = (await frame.getByTestId('key').first().getAttribute('data-key-id')) as string;
  const approved = await post(platform.url, `/api/admin/api-keys/${id}/approve`, {}, ADMIN_TOKEN);
  expect(approved.status).toBe(200);
  return { key, id };
}

/**
 * Elements of the Apps section that reach past the frame's width (tag.class#testid and right edge): none, or the page
 * scrolls sideways. The section's own (the key usage chart's visually hidden table is another section's).
 */
const overflowing = (frame: Frame) =>
  frame.evaluate(() => {
    const width = document.documentElement.clientWidth;
    return Array.from(document.querySelectorAll('#apps, #apps *'))
      .filter((e) => e.getBoundingClientRect().right > width + 0.5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${e.className}#${e.getAttribute('data-testid') ?? ''} ${Math.round(e.getBoundingClientRect().right)}>${width}`,
      )
      .slice(0, 10);
  });

describe('the portal’s apps', () => {
  it('registers an app, shows its token once, publishes and activates a version, restricts the key', async () => {
    const { page, errors } = await inEmulator('portal apps');
    let frame = await portalFrame(page);
    await signIn(page, frame);
    const { key, id: keyId } = await approvedKey(page, frame);
    await frame.getByTestId('no-apps').waitFor({ state: 'visible' });

    // An origin as a browser would not send it is flagged before anything is sent; the focus goes to it.
    await frame.getByTestId('app-name').fill('my-dapp');
    await frame.getByTestId('app-origins').fill(`${ORIGIN}/\nhttp://localhost:5173`);
    await frame.getByTestId('app-create').click();
    const originErr = frame.getByTestId('app-origins-error');
    await originErr.waitFor({ state: 'visible' });
    expect(await originErr.textContent()).toBe(
      `${ORIGIN}/ is not written as a browser sends it: write ${ORIGIN} (lowercase, no default port, no path or trailing slash).`,
    );
    await expect.poll(() => frame.evaluate(() => document.activeElement?.id)).toBe('app-origins');
    expect(await frame.getByTestId('app-origins').getAttribute('aria-invalid')).toBe('true');
    expect(await frame.getByTestId('no-apps').count()).toBe(1);

    // Registered with the origin and the key: the publish token in a dialog, shown this once.
    await frame.getByTestId('app-origins').fill(`${ORIGIN}\nhttp://localhost:5173`);
    await frame.getByTestId(`app-key-${keyId}`).check();
    await frame.getByTestId('app-create').click();
    const dialog = frame.getByTestId('token-dialog');
    await dialog.waitFor({ state: 'visible' });
    const token = await frame.getByTestId('new-token').inputValue();
    expect(token).toMatch(/^cwp_[\w-]{43}$/);
    expect(await dialog.textContent()).toMatch(/Copy it now: it is shown this once\./);
    expect(await frame.getByTestId('publish-command').textContent()).toContain('--app my-dapp');
    await expect
      .poll(() => frame.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('copy-token');
    await frame.getByTestId('copy-token').click();
    await expect
      .poll(() => frame.getByTestId('token-dialog').getByTestId('copy-status').textContent())
      .toMatch(/Copied|selected/);
    await shot(page, 'apps-01-token-once');
    await expectAccessible(frame, 'apps-token-dialog');
    await frame.getByTestId('token-dialog-done').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => frame.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('app-create');

    const card = frame.locator('[data-testid="app"][data-app="my-dapp"]');
    await card.waitFor({ state: 'visible' });
    expect(await card.getByTestId('app-origins-list').locator('li').allTextContents()).toEqual([
      ORIGIN,
      'http://localhost:5173',
    ]);
    const appKey = card.locator(`[data-testid="app-key"][data-key-id="${keyId}"]`);
    expect(await appKey.getAttribute('data-documents')).toBe('any');
    expect(await card.getByTestId('no-versions').count()).toBe(1);
    // The key now serves this app: the form offers it no more.
    expect(await frame.getByTestId(`app-key-${keyId}`).isDisabled()).toBe(true);

    // The same name again: the server's refusal, with its code, at the name.
    await frame.getByTestId('app-name').fill('my-dapp');
    await frame.getByTestId('app-create').click();
    const formErr = frame.getByTestId('app-form-error');
    await formErr.waitFor({ state: 'visible' });
    expect(await formErr.getAttribute('role')).toBe('alert');
    expect(await formErr.textContent()).toBe(
      'you already have an app named "my-dapp": names are unique per account (APP_EXISTS)',
    );
    expect(await frame.getByTestId('app-name').getAttribute('aria-invalid')).toBe('true');

    // Reload: the app is listed, the token is nowhere on the page.
    await page.reload();
    frame = await portalFrame(page);
    const reloaded = frame.locator('[data-testid="app"][data-app="my-dapp"]');
    await reloaded.waitFor({ state: 'visible', timeout: 15_000 });
    expect(await frame.evaluate(() => document.documentElement.outerHTML)).not.toContain(token);
    expect(await frame.getByTestId('token-dialog').count()).toBe(0);

    // Publish the client's manifest as a file, not activated: listed, inactive, with its document count.
    const publish = reloaded.getByTestId('publish-form');
    await publish.getByTestId('publish-file').setInputFiles(MANIFEST);
    await publish.getByTestId('publish-version').fill('1.0.0');
    await publish.getByTestId('publish').click();
    const v1 = reloaded.locator('[data-testid="version"][data-version="1.0.0"]');
    await v1.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await v1.getAttribute('data-active')).toBe('false');
    expect(await v1.textContent()).toContain(`${Object.keys(DOCUMENTS).length} documents, published`);
    expect(await publish.getByTestId('publish-version').inputValue()).toBe(''); // the form is reset

    // Activate it.
    await v1.getByTestId('activate').click();
    await expect.poll(() => v1.getAttribute('data-active')).toBe('true');
    expect(await v1.getByTestId('version-state').textContent()).toBe('Active');

    // The same version again: VERSION_EXISTS, shown in the form; nothing typed is lost.
    await publish.getByTestId('publish-file').setInputFiles(MANIFEST);
    await publish.getByTestId('publish-version').fill('1.0.0');
    await publish.getByTestId('publish').click();
    const pubErr = publish.getByTestId('publish-error');
    await pubErr.waitFor({ state: 'visible' });
    expect(await pubErr.getAttribute('role')).toBe('alert');
    expect(await pubErr.textContent()).toBe(
      'app "my-dapp" already has version "1.0.0": versions are immutable, publish a new version (VERSION_EXISTS)',
    );
    expect(await publish.getByTestId('publish-version').inputValue()).toBe('1.0.0');

    // A manifest whose hash is not its body's: DOCUMENT_HASH_MISMATCH naming the document; no version 2.0.0.
    const body = 'query Tampered { me { address } }';
    const wrong = `sha256:${'0'.repeat(64)}`;
    await publish.getByTestId('publish-file').setInputFiles({
      name: 'persisted-documents.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ [wrong]: body })),
    });
    await publish.getByTestId('publish-version').fill('2.0.0');
    await publish.getByTestId('publish').click();
    await expect
      .poll(() => pubErr.textContent())
      .toBe(
        `document "${wrong}": its id must be the SHA-256 of its body (hex, optionally prefixed "sha256:"); the body hashes to ${createHash('sha256').update(body).digest('hex')} (DOCUMENT_HASH_MISMATCH)`,
      );
    expect(await reloaded.locator('[data-testid="version"][data-version="2.0.0"]').count()).toBe(0);
    // A document the schema does not have (DOCUMENT_INVALID, named, with graphql-js's reason), and a file that is
    // not JSON (INVALID_JSON): each refusal replaces the last, nothing is published.
    const invalid = 'query Nope { zzqqxx }';
    const invalidId = `sha256:${createHash('sha256').update(invalid).digest('hex')}`;
    for (const [text, expected] of [
      [
        JSON.stringify({ [invalidId]: invalid }),
        `document "${invalidId}" is not valid against the current API schema: Cannot query field "zzqqxx" on type "Query". (DOCUMENT_INVALID)`,
      ],
      [
        '{ "sha256:ab": ',
        'manifest must be JSON: a persisted-documents.json or an Apollo persisted query manifest (INVALID_JSON)',
      ],
    ] as const) {
      await publish.getByTestId('publish-file').setInputFiles({
        name: 'persisted-documents.json',
        mimeType: 'application/json',
        buffer: Buffer.from(text),
      });
      await publish.getByTestId('publish').click();
      await expect.poll(() => pubErr.textContent()).toBe(expected);
    }
    await reloaded.scrollIntoViewIfNeeded();
    await shot(page, 'apps-02-refused-manifest');
    await expectAccessible(frame, 'apps-refused-manifest');

    // Before: the key runs any query.
    expect(await graph(key, { query: '{ __typename }' })).toEqual({ status: 200 });

    // Switch the key to trusted-only: the page says what that means, then the router applies it.
    const reloadedKey = reloaded.locator(`[data-testid="app-key"][data-key-id="${keyId}"]`);
    await reloadedKey.getByTestId('policy').selectOption('trusted-only');
    expect(await reloadedKey.locator('.hint').textContent()).toBe(
      `Runs only the documents of active versions (${Object.keys(DOCUMENTS).length} listed); anything else is refused with PERSISTED_QUERY_NOT_IN_LIST.`,
    );
    await reloadedKey.getByTestId('save-policy').click();
    await expect.poll(() => reloadedKey.getAttribute('data-documents')).toBe('trusted-only');
    expect(await reloadedKey.textContent()).toContain('Trusted documents only');

    const [documentId, text] = Object.entries(DOCUMENTS)[0] as [string, string];
    expect(await graph(key, { query: '{ __typename }' })).toEqual({
      status: 400,
      code: 'PERSISTED_QUERY_NOT_IN_LIST',
    });
    expect((await graph(key, { documentId })).code).toBeUndefined();
    expect((await graph(key, { query: text })).code).toBeUndefined();
    expect(await graph(key, { documentId }, 'https://evil.example')).toEqual({
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });
    expect((await graph(key, { documentId }, ORIGIN)).code).toBeUndefined();

    // Deactivating the only version leaves the trusted-only key nothing to run: the card says so.
    await v1.getByTestId('deactivate').click();
    const warning = reloaded.getByTestId('app-warning');
    await warning.waitFor({ state: 'visible' });
    expect(await warning.textContent()).toMatch(/^No version is active: cw_live_\S+… is trusted-only/);
    await v1.getByTestId('activate').click();
    await warning.waitFor({ state: 'hidden' });

    // Origins edited on the card: a path is flagged and not sent; without localhost the list is one origin.
    await reloaded.getByTestId('edit-origins').click();
    const originsInput = reloaded.getByTestId('origins-input');
    expect(await originsInput.inputValue()).toBe(`${ORIGIN}\nhttp://localhost:5173`);
    await originsInput.fill(`${ORIGIN}/app`);
    expect(await reloaded.getByTestId('save-origins').isDisabled()).toBe(true);
    expect(await originsInput.getAttribute('aria-invalid')).toBe('true');
    await originsInput.fill(ORIGIN);
    await reloaded.getByTestId('save-origins').click();
    await expect
      .poll(() => reloaded.getByTestId('app-origins-list').locator('li').allTextContents())
      .toEqual([ORIGIN]);
    expect(await graph(key, { documentId }, 'http://localhost:5173')).toEqual({
      status: 403,
      code: 'ORIGIN_NOT_ALLOWED',
    });

    // A new publish token, confirmed first: shown once; the old one is refused from then on, the new one publishes.
    const focused = () => frame.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await reloaded.getByTestId('rotate-token').click();
    await expect.poll(focused).toBe('rotate-confirm');
    await reloaded.getByTestId('rotate-confirm').click();
    const rotatedDialog = frame.getByTestId('token-dialog');
    await rotatedDialog.waitFor({ state: 'visible' });
    const rotated = await frame.getByTestId('new-token').inputValue();
    expect(rotated).toMatch(/^cwp_[\w-]{43}$/);
    expect(rotated).not.toBe(token);
    await page.keyboard.press('Escape');
    await rotatedDialog.waitFor({ state: 'hidden' });
    await expect.poll(focused).toBe('rotate-token');
    const manifest = readFileSync(MANIFEST, 'utf8');
    const publishWith = (t: string, version: string) =>
      post(platform.url, '/api/account/apps/my-dapp/versions', { version, manifest }, t);
    const old = await publishWith(token, '1.0.1');
    expect(old.status).toBe(401);
    expect((old.body as { error: { code: string } }).error.code).toBe('INVALID_PUBLISH_TOKEN');
    expect((await publishWith(rotated, '1.0.1')).status).toBe(201);
    await refresh(frame);
    await expect
      .poll(() =>
        reloaded
          .locator('[data-testid="version"]')
          .evaluateAll((l) => l.map((e) => e.getAttribute('data-version'))),
      )
      .toEqual(['1.0.1', '1.0.0']);

    // Usage per document beside the key's usage (usage.tsx, operations.ts): the document run above by id and by
    // body from a server and the listed origin (3), refused from two unlisted origins (2), under version 1.0.0.
    await refresh(frame);
    const keyCard = frame.locator(`[data-testid="key"][data-key-id="${keyId}"]`);
    const docName = /^query (\w+)/.exec(text)?.[1] as string;
    const docRow = keyCard.getByTestId('operation-row').filter({ hasText: docName });
    await docRow.waitFor({ state: 'visible' });
    expect(await docRow.locator('th').textContent()).toBe(`${docName}Document of my-dapp, version 1.0.0`);
    expect((await docRow.locator('td').allTextContents()).slice(0, 3)).toEqual(['5', '0', '2']);
    expect(await keyCard.getByTestId('operations-empty').count()).toBe(0);
    await keyCard.getByTestId('operations').scrollIntoViewIfNeeded();
    await shot(page, 'apps-03-key-operations');

    // 1280 and 360 px: screenshots, nothing wider than the page.
    await reloaded.scrollIntoViewIfNeeded();
    await shot(page, 'apps-03-1280');
    await expectAccessible(frame, 'apps-1280');
    expect(await overflowing(frame)).toEqual([]);
    await page.setViewportSize({ width: 360, height: 800 });
    await reloaded.scrollIntoViewIfNeeded();
    await shot(page, 'apps-04-360');
    expect(await overflowing(frame)).toEqual([]);
    expect(errors).toEqual([]);
  });
});
