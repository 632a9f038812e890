/**
 * The mining calculator widget (`/widgets/mining-calculator.js`) embedded in a third-party page, in real Chromium.
 *
 * - The platform runs in process (`startProduct`, demo data of 3 days, ticks an hour apart so prices hold still),
 *   on `127.0.0.1:<port>`; the third-party site is a tiny static server on `site.localhost:<other port>` (another
 *   origin), whose page has one script tag, the element, and hostile CSS the widget must not be touched by.
 * - The inputs are filled with the keyboard only; the figures shown equal a reference calculation made here from the
 *   figures the graph serves (fetched independently with the widget's persisted document).
 * - Responsive screenshots at 360 px and 1280 px, and the states page (not mined, unknown coin, API down), are kept
 *   under test-artifacts/widget/ (gitignored), with the axe-core reports; axe finds no serious or critical violation.
 *
 * Setup and helpers: widget-harness.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatCoins, formatMoney } from '../../src/web/widgets/mining/format.ts';
import {
  ARTIFACTS,
  axeCheck,
  graphFigures,
  LOCALE,
  loaded,
  open,
  product,
  reference,
  retype,
  siteOrigin,
  useWidgetHarness,
  widget,
} from './widget-harness.ts';

useWidgetHarness();

describe('the mining calculator widget on a third-party site', () => {
  it('loads from the platform, calls the platform, and its figures match the reference calculation', async () => {
    const { page, errors, requests } = await open('/');
    const w = widget(page);
    await loaded(w);

    // Cross-origin: the page is on site.localhost, the widget's calls go to the platform it was loaded from.
    const platformOrigin = new URL(product.url).origin;
    const graphCalls = requests.filter((r) => r.url().endsWith('/graphql') && r.method() === 'POST');
    expect(graphCalls.length).toBeGreaterThan(0);
    for (const r of graphCalls) {
      expect(new URL(r.url()).origin).toBe(platformOrigin);
      expect((await r.allHeaders())['origin']).toBe(siteOrigin);
      const sent = r.postDataJSON() as { documentId?: string; query?: string };
      expect(sent.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(sent.query).toBeUndefined();
    }
    expect(requests.some((r) => r.url() === `${product.url}/widgets/mining-calculator.js`)).toBe(true);

    // The site's hostile CSS does not reach the widget: its inputs are shown, its heading keeps its size.
    await expect.poll(async () => w.locator('#hashrate').isVisible()).toBe(true);
    const h2Size = await w.locator('h2').evaluate((el) => getComputedStyle(el).fontSize);
    expect(parseFloat(h2Size)).toBeLessThan(24);
    expect(
      await w
        .locator('td')
        .first()
        .evaluate((el) => getComputedStyle(el).letterSpacing),
    ).toBe('normal');
    expect(await w.locator('#hashrate').evaluate((el) => getComputedStyle(el).fontFamily)).not.toContain(
      'Georgia',
    );

    // Keyboard only: focus the first field, then Tab through the form.
    await w.locator('#hashrate').focus();
    await retype(page, '250');
    await page.keyboard.press('Tab'); // unit: GH/s → MH/s
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    await retype(page, '120');
    await page.keyboard.press('Tab');
    await retype(page, '0.12');
    await page.keyboard.press('Tab');
    await retype(page, '1.5');
    await page.keyboard.press('Tab'); // currency: USD → EUR, by typing its code
    await page.keyboard.type('eur');
    await page.keyboard.press('Tab');

    expect(await w.locator('#unit').inputValue()).toBe('MH/s');
    expect(await w.locator('#currency').inputValue()).toBe('eur');
    await expect
      .poll(async () => w.locator('label[for=electricity]').textContent())
      .toBe('Electricity cost (EUR per kWh)');

    // The graph's figures (EUR), fetched independently; the widget shows the same ones.
    const g = await graphFigures('luckycoin', 'eur');
    const m = g.coin?.mining;
    expect(m).toBeTruthy();
    const net = {
      H: m!.networkHashrate as number,
      T: m!.blockTimeSeconds as number,
      R: m!.blockReward as number,
      P: g.coin!.price as number,
    };
    expect(Object.values(net).every((v) => typeof v === 'number' && v > 0)).toBe(true);
    await expect
      .poll(async () => Number(await w.getByTestId('net-price').getAttribute('data-value')))
      .toBe(net.P);
    expect(Number(await w.getByTestId('net-hashrate').getAttribute('data-value'))).toBe(net.H);
    expect(Number(await w.getByTestId('net-block-time').getAttribute('data-value'))).toBe(net.T);
    expect(Number(await w.getByTestId('net-reward').getAttribute('data-value'))).toBe(net.R);
    expect(Number(await w.getByTestId('net-difficulty').getAttribute('data-value'))).toBe(m!.difficulty);
    expect(await w.getByTestId('net-algorithm').textContent()).toBe('scrypt');
    expect(await w.getByTestId('sources').textContent()).toContain('demo data (generated, not real)');
    await expect(w.getByTestId('demo-notice').isVisible()).resolves.toBe(true);

    const ref = reference({ hashrateHs: 250e6, watts: 120, perKwh: 0.12, feePct: 1.5 }, net);
    for (const [id, expected] of Object.entries(ref)) {
      const cell = w.getByTestId(id);
      const shown = Number(await cell.getAttribute('data-value'));
      expect(Math.abs(shown - expected), `${id}: ${shown} vs ${expected}`).toBeLessThanOrEqual(
        Math.abs(expected) * 1e-12 + 1e-15,
      );
      const text = (await cell.textContent()) ?? '';
      expect(text, id).toBe(
        id.startsWith('coins') ? formatCoins(expected, LOCALE) : formatMoney(expected, 'eur', LOCALE),
      );
    }
    expect(await w.getByTestId('electricity-day').textContent()).toBe('€0.3456'); // 0.12 kW × 24 h × 0.12, 4 significant digits below 1

    // Screen readers get the result once typing pauses.
    await expect
      .poll(async () => w.getByTestId('announcement').textContent(), { timeout: 5_000 })
      .toContain(`${formatCoins(ref['coins-day'], LOCALE)} LKY`);
    expect(await w.getByTestId('announcement').getAttribute('aria-live')).toBe('polite');
    expect(errors).toEqual([]);
  });

  it('explains bad input next to the field, keyboard and screen reader alike', async () => {
    const { page } = await open('/');
    const w = widget(page);
    await loaded(w);
    await w.locator('#fee').focus();
    await retype(page, '150');
    await expect.poll(async () => w.locator('#fee').getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await w.locator('#fee').getAttribute('aria-describedby')) ?? '';
    expect(await w.locator(`#${describedBy}`).textContent()).toBe(
      'Pool fee must be a percentage from 0 to 100',
    );
    expect(await w.getByTestId('coins-day').textContent()).toBe('—');
    await retype(page, '2');
    await expect.poll(async () => w.locator('#fee').getAttribute('aria-invalid')).toBe('false');
    expect(await w.getByTestId('coins-day').getAttribute('data-value')).not.toBe('');
  });

  it('is responsive: one column at 360 px, two at 1280 px, no horizontal scrolling (screenshots kept)', async () => {
    for (const width of [360, 1280]) {
      const { page } = await open('/', width);
      const w = widget(page);
      await loaded(w);
      const form = (await w.locator('form').boundingBox())!;
      const results = (await w.getByTestId('results').boundingBox())!;
      if (width === 360) expect(results.y).toBeGreaterThanOrEqual(form.y + form.height - 1);
      else {
        expect(results.x).toBeGreaterThanOrEqual(form.x + form.width - 1);
        expect(Math.abs(results.y - form.y)).toBeLessThan(60);
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `horizontal overflow at ${width}px`).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(ARTIFACTS, `widget-${width}.png`), fullPage: true });
      await w.screenshot({ path: join(ARTIFACTS, `widget-${width}-element.png`) });
      await axeCheck(page, `widget-${width}`);
    }
  });

  it('shows clear states: not mined, unknown coin, API unreachable (with retry), invalid attribute', async () => {
    const { page } = await open('/states', 1280);
    const notMined = widget(page, '#not-mined');
    await expect
      .poll(async () => notMined.getByTestId('no-mining').textContent(), { timeout: 20_000 })
      .toContain('No network figures are known for Solana');
    expect(await notMined.getByTestId('coins-day').textContent()).toBe('—');
    // Electricity needs only the inputs: 1,000 W × 24 h × 0.10.
    expect(await notMined.getByTestId('electricity-day').textContent()).toBe('$2.40');

    const unknown = widget(page, '#unknown');
    await expect
      .poll(async () => unknown.getByTestId('unknown-coin').textContent())
      .toContain('“no-such-coin”');

    const down = widget(page, '#down');
    await expect
      .poll(async () => down.getByTestId('error').textContent(), { timeout: 20_000 })
      .toContain('NETWORK_ERROR');
    expect(await down.getByTestId('error').getAttribute('role')).toBe('alert');
    await down.getByRole('button', { name: 'Try again' }).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => down.getByTestId('error').textContent(), { timeout: 20_000 })
      .toContain('could not be reached');

    const invalid = widget(page, '#invalid');
    expect(await invalid.getByRole('alert').textContent()).toContain('must be a kit ticker such as LKY');

    await page.screenshot({ path: join(ARTIFACTS, 'widget-states.png'), fullPage: true });
    await axeCheck(page, 'states');
  });
});
