/// <reference lib="dom" />
/**
 * The developer portal (`/portal`, src/web/pages/portal/) end to end in real Chromium: the whole product in process,
 * the portal opened inside the dapp-browser emulator (whose development wallet signs in through its approval
 * prompts), an administrator acting over REST with the operator token.
 *
 * - In an ordinary tab: no provider, so the portal says to open it in Coin Wallet's dapp browser.
 * - Inside the emulator: sign in; request a key and see it once (a reload does not show it again); the key is 401
 *   while pending; the administrator approves it (enterprise, 3 per minute); the portal shows it approved; requests
 *   with it are admitted then 429; the usage chart shows them with the 401s; revoke with confirmation.
 * - Dapps: inline validation, three submissions, the fourth refused with the server's DAPP_LIMIT_REACHED message,
 *   review notes of a rejected request.
 * - axe-core in every state: no serious or critical violations.
 *
 * Screenshots and the axe reports are kept under test-artifacts/portal/ (gitignored). Setup and helpers:
 * portal-harness.ts.
 */
import { describe, expect, it } from 'vitest';
import { get, post } from '../support/wallet.ts';
import { ADMIN_TOKEN } from './support.ts';
import {
  answerPrompt,
  expectAccessible,
  inEmulator,
  newPage,
  ping,
  platform,
  portalFrame,
  refresh,
  shot,
  signIn,
  usePortalHarness,
} from './portal-harness.ts';

usePortalHarness();

describe('the portal in an ordinary tab', () => {
  it('says to open it inside Coin Wallet’s dapp browser, and offers no sign-in', async () => {
    const { page, errors } = await newPage();
    const res = await page.goto(`${platform.url}/portal`);
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    const note = page.getByTestId('no-provider');
    await note.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await note.textContent()).toMatch(/Open this page inside Coin Wallet’s dapp browser to sign in/);
    expect(await page.getByTestId('sign-in').count()).toBe(0);
    await shot(page, '01-ordinary-tab');
    await expectAccessible(page.mainFrame(), 'ordinary-tab');
    expect(errors).toEqual([]);
  });
});

describe('the portal inside the dapp-browser emulator', () => {
  it('a declined wallet prompt leaves the user signed out with a clear message', async () => {
    const { page } = await inEmulator('portal declined');
    const frame = await portalFrame(page);
    await frame.getByTestId('sign-in').click();
    await answerPrompt(page, 'wallet_connect', 'reject');
    const err = frame.getByTestId('sign-in-error');
    await err.waitFor({ state: 'visible' });
    expect(await err.textContent()).toMatch(/declined the request in your wallet/);
    expect(await frame.getByTestId('signed-in-address').count()).toBe(0);
  });

  it('signs in, requests a key shown once, sees it approved and its usage, revokes it', async () => {
    const { emu, page, errors } = await inEmulator('portal keys');
    let frame = await portalFrame(page);
    await shot(page, '02-emulator-signed-out');
    await signIn(page, frame);
    const address = emu.wallet.account('LTC')?.address;
    expect(await frame.getByTestId('signed-in-address').textContent()).toBe(address);
    expect(await frame.getByTestId('no-keys').textContent()).toMatch(/no API keys yet/);
    await expectAccessible(frame, 'signed-in');

    // Inline validation: an empty description is refused before anything is sent.
    await frame.getByTestId('request-key').click();
    await frame.locator('#key-desc-err').waitFor({ state: 'visible' });
    await expect.poll(() => frame.evaluate(() => document.activeElement?.id)).toBe('key-desc');

    // Request an enterprise key: the secret is in a modal dialog, once, with a copy button holding the focus.
    await frame
      .getByTestId('key-description')
      .fill('Price widget on portal-test.example (about 100 requests a day)');
    await frame.getByTestId('key-plan-ENTERPRISE').check();
    await frame.getByTestId('request-key').click();
    const dialog = frame.getByTestId('key-dialog');
    await dialog.waitFor({ state: 'visible' });
    const key = await frame.getByTestId('new-key').inputValue();
    expect(key).toMatch(/^cw_live_[\w-]{20,}$/);
    expect(await dialog.textContent()).toMatch(/you will not see this key again/);
    await expect
      .poll(() => frame.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('copy-key');
    await frame.getByTestId('copy-key').click();
    await expect.poll(() => frame.getByTestId('copy-status').textContent()).toMatch(/Copied|selected/);
    await shot(page, '03-key-shown-once');
    await expectAccessible(frame, 'key-dialog');
    await page.keyboard.press('Escape'); // the dialog closes from the keyboard
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => frame.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('request-key');

    const card = frame.getByTestId('key');
    expect(await card.count()).toBe(1);
    const keyId = (await card.getAttribute('data-key-id')) as string;
    expect(await card.getByTestId('key-status').getAttribute('data-status')).toBe('PENDING');
    expect(await card.getByTestId('key-plan').textContent()).toBe('Enterprise');
    expect(
      key.startsWith((await card.locator('.key-title code').textContent())?.replace('…', '') ?? '-'),
    ).toBe(true);

    // A pending key does not work yet: 401 (counted as unauthorized in its usage).
    for (let i = 0; i < 3; i++) expect(await ping(key)).toBe(401);

    // Reload: still signed in (the session is in sessionStorage), and the key is nowhere on the page.
    await page.reload();
    frame = await portalFrame(page);
    await frame.getByTestId('key').waitFor({ state: 'visible', timeout: 15_000 });
    const html = await frame.evaluate(() => ({
      html: document.documentElement.outerHTML,
      inputs: Array.from(document.querySelectorAll('input, textarea')).map(
        (i) => (i as HTMLInputElement).value,
      ),
    }));
    expect(html.html).not.toContain(key);
    expect(html.inputs).not.toContain(key);
    expect(await frame.getByTestId('key-dialog').count()).toBe(0);

    // The administrator approves it (3 requests per minute, so the rate limit is easy to reach).
    const approved = await post(
      platform.url,
      `/api/admin/api-keys/${keyId}/approve`,
      { limitPerMinute: 3 },
      ADMIN_TOKEN,
    );
    expect(approved.status).toBe(200);
    await refresh(frame);
    await expect
      .poll(() => frame.getByTestId('key-status').getAttribute('data-status'), { timeout: 20_000 })
      .toBe('APPROVED');
    expect(await frame.getByTestId('key-limit').textContent()).toBe('3 requests/minute');

    // Use it: 3 admitted, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await ping(key));
    expect(statuses).toEqual([200, 200, 200, 429, 429]);

    // The usage chart shows the hour: admitted, 429 and 401, with markers for the refusals.
    await expect
      .poll(
        async () => {
          await refresh(frame);
          return frame
            .getByTestId('usage-summary')
            .textContent({ timeout: 2_000 })
            .catch(() => null);
        },
        { timeout: 40_000, interval: 1000 },
      )
      .toBe(
        '3 requests admitted, 2 refused by the rate limit (429), 3 refused as unauthorized (401) in the last hour.',
      );
    const chart = frame.getByTestId('usage-chart');
    expect(await chart.locator('svg[role="img"]').getAttribute('aria-label')).toMatch(
      /^Requests per minute with key/,
    );
    expect(await chart.locator('polyline').count()).toBe(3);
    expect(await chart.locator('.chart-marker').count()).toBeGreaterThanOrEqual(2);
    expect(await chart.locator('figcaption').textContent()).toMatch(
      /Admitted.*Rate limited \(429\).*Unauthorized \(401\)/,
    );
    await frame.getByTestId('usage').scrollIntoViewIfNeeded();
    await shot(page, '04-key-approved-usage');
    await expectAccessible(frame, 'key-approved-usage');

    // Revoke, with a confirmation step (Cancel keeps it; the confirm button takes the focus).
    const focused = () => frame.evaluate(() => document.activeElement?.getAttribute('data-testid'));
    await frame.getByTestId('revoke').click();
    await expect.poll(focused).toBe('revoke-confirm');
    await frame.getByTestId('revoke-cancel').click();
    expect(await frame.getByTestId('revoke-confirm').count()).toBe(0);
    await expect.poll(focused).toBe('revoke');
    await frame.getByTestId('revoke').click();
    await shot(page, '05-revoke-confirm');
    await frame.getByTestId('revoke-confirm').click();
    await expect.poll(() => frame.getByTestId('key-status').getAttribute('data-status')).toBe('REVOKED');
    expect(await frame.getByTestId('revoke').count()).toBe(0);
    expect(await ping(key)).toBe(401);

    // A second key: its dialog says what becomes of it while it is open (here: rejected, with the reason).
    await frame
      .getByTestId('key-description')
      .fill('Second key, for a nightly report job on portal-test.example');
    await frame.getByTestId('request-key').click();
    const secondDialog = frame.getByTestId('key-dialog');
    await secondDialog.waitFor({ state: 'visible' });
    const state = frame.getByTestId('key-dialog-state');
    expect(await state.textContent()).toMatch(/^It stays pending until an administrator approves it/);
    const second = (await frame.getByTestId('key').nth(0).getAttribute('data-key-id')) as string;
    const pendingId =
      second === keyId ? await frame.getByTestId('key').nth(1).getAttribute('data-key-id') : second;
    const rejected = await post(
      platform.url,
      `/api/admin/api-keys/${pendingId}/reject`,
      { reason: 'one key per account for now' },
      ADMIN_TOKEN,
    );
    expect(rejected.status).toBe(200);
    await frame.evaluate(() => document.dispatchEvent(new Event('visibilitychange'))); // back to the tab
    await expect
      .poll(() => state.textContent(), { timeout: 10_000 })
      .toBe(
        'An administrator rejected it: one key per account for now. It will not work; you may request another.',
      );
    await page.keyboard.press('Escape');
    await secondDialog.waitFor({ state: 'hidden' });

    // Sign out: back to the sign-in view; the old session no longer works.
    await frame.getByTestId('sign-out').click();
    await frame.getByTestId('sign-in').waitFor({ state: 'visible' });
    expect(await frame.evaluate(() => sessionStorage.getItem('coinwallet.session'))).toBeNull();
    expect(errors).toEqual([]);
  });

  it('submits dapps with inline validation; the fourth in 24 hours is refused with the server’s message', async () => {
    const { page, errors } = await inEmulator('portal dapps');
    const frame = await portalFrame(page);
    await signIn(page, frame);
    const limit = frame.getByTestId('dapp-limit');
    expect(await limit.textContent()).toMatch(
      /You can send 3 listing requests per 24 hours\..*You have 3 left\./,
    );

    // Everything empty: each field says what it needs, the first takes the focus.
    await frame.getByTestId('dapp-submit').click();
    for (const f of ['name', 'site', 'icon', 'description', 'contactEmail', 'chains'])
      await frame.getByTestId(`dapp-${f}-error`).waitFor({ state: 'visible' });
    await expect.poll(() => frame.evaluate(() => document.activeElement?.id)).toBe('dapp-name');
    await frame.getByTestId('dapp-site').fill('http://insecure.example');
    await frame.getByTestId('dapp-contactEmail').fill('not-an-address');
    expect(await frame.getByTestId('dapp-site-error').textContent()).toMatch(/https:\/\//);
    expect(await frame.getByTestId('dapp-contactEmail-error').textContent()).toMatch(/e-mail address/);
    await shot(page, '06-dapp-validation');
    await expectAccessible(frame, 'dapp-validation');

    const fill = async (n: number) => {
      await frame.getByTestId('dapp-name').fill(`Portal Dapp ${n}`);
      await frame.getByTestId('dapp-site').fill(`https://dapp${n}.portal-test.example/app`);
      await frame.getByTestId('dapp-icon').fill(`https://dapp${n}.portal-test.example/icon.png`);
      await frame.getByTestId('dapp-description').fill(`Test dapp number ${n}.\nIt swaps coins.`);
      await frame.getByTestId('dapp-contactEmail').fill('dev@portal-test.example');
      for (const c of ['LTC', 'DOGE']) {
        const box = frame.getByTestId(`dapp-chain-${c}`);
        if (!(await box.isChecked())) await box.check();
      }
    };
    for (let n = 1; n <= 3; n++) {
      await fill(n);
      await frame.getByTestId('dapp-submit').click();
      await expect.poll(() => frame.getByTestId('dapp').count()).toBe(n);
      expect(await frame.getByTestId('dapp-name').inputValue()).toBe(''); // the form is reset
    }
    expect(await frame.getByTestId('dapp').first().locator('h4').textContent()).toBe('Portal Dapp 3');
    expect(await frame.getByTestId('dapp-status').first().getAttribute('data-status')).toBe('SUBMITTED');
    // The limit is explained before it bites.
    expect(await limit.getAttribute('data-left')).toBe('0');
    expect(await limit.textContent()).toMatch(/You have used all 3: the next slot opens at /);

    await fill(4);
    await frame.getByTestId('dapp-submit').click();
    const refused = frame.getByTestId('dapp-form-error');
    await refused.waitFor({ state: 'visible' });
    expect(await refused.textContent()).toMatch(
      /^at most 3 dapp listing requests per account in 24 hours: the next is allowed at \d{4}-\d\d-\d\dT[\d:.]+Z \(DAPP_LIMIT_REACHED\)$/,
    );
    expect(await frame.getByTestId('dapp').count()).toBe(3);
    expect(await frame.getByTestId('dapp-name').inputValue()).toBe('Portal Dapp 4'); // nothing typed is lost
    await shot(page, '07-dapp-limit-reached');

    // A review decision shows up with its notes.
    const mine = await get(platform.url, '/api/admin/dapps?status=submitted', ADMIN_TOKEN);
    const first = mine.body as { dapps?: { id: string; name: string }[] } | { id: string; name: string }[];
    const list = Array.isArray(first) ? first : (first.dapps ?? []);
    const target = list.find((d) => d.name === 'Portal Dapp 1');
    expect(target).toBeDefined();
    const rejected = await post(
      platform.url,
      `/api/admin/dapps/${target?.id}/reject`,
      { notes: 'the icon does not load' },
      ADMIN_TOKEN,
    );
    expect(rejected.status).toBe(200);
    await refresh(frame);
    const card = frame.locator(`[data-dapp-id="${target?.id}"]`);
    await expect.poll(() => card.getAttribute('data-status')).toBe('REJECTED');
    expect(await card.getByTestId('dapp-notes').textContent()).toBe('Review notes: the icon does not load');
    await frame.getByTestId('dapps').scrollIntoViewIfNeeded();
    await shot(page, '08-dapp-submissions');
    await expectAccessible(frame, 'dapp-submissions');
    expect(errors).toEqual([]);
  });
});
