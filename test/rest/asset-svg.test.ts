import { describe, expect, it } from 'vitest';
import { ASSETS, KIT_TICKERS } from '../../src/catalog/assets.ts';
import { BRAND_COLORS, coinColor, contrast, derivedColor, hslToHex } from '../../src/catalog/colors.ts';
import {
  badgeSvg,
  escapeXml,
  SPARKLINE_BOX,
  SPARKLINE_DOWN,
  SPARKLINE_UP,
  sparklinePoints,
  sparklineSvg,
} from '../../src/rest/assets/svg.ts';
import { findAll, parseXml } from '../support/xml.ts';

const LTC = { id: 'litecoin', symbol: 'ltc', name: 'Litecoin' };
const HEX = /^#[0-9A-F]{6}$/;

describe('coin colours', () => {
  it('every brand colour is a catalog coin and #RRGGBB', () => {
    const ids = new Set(ASSETS.map((a) => a.id));
    for (const [id, hex] of BRAND_COLORS) {
      expect(ids.has(id), id).toBe(true);
      expect(hex).toMatch(HEX);
    }
  });

  it('uses the brand colour where listed and a derived one elsewhere', () => {
    expect(coinColor('bitcoin')).toEqual({ fill: '#F7931A', text: '#000000', source: 'brand' });
    expect(coinColor('litecoin')).toMatchObject({ fill: '#345D9D', text: '#FFFFFF', source: 'brand' });
    const lky = coinColor('luckycoin');
    expect(lky.source).toBe('derived');
    expect(lky.fill).toBe(derivedColor('luckycoin'));
    // The kit coins without a listed brand colour: 16 of 19 (documented in colors.ts).
    const kit = ASSETS.filter((a) => a.kitTicker !== undefined);
    expect(kit).toHaveLength(KIT_TICKERS.length);
    expect(kit.filter((a) => coinColor(a.id).source === 'derived')).toHaveLength(16);
  });

  it('derives a stable colour from the id (pinned: a change would recolour badges between releases)', () => {
    expect(derivedColor('luckycoin')).toBe(derivedColor('luckycoin'));
    expect(derivedColor('luckycoin')).toMatch(HEX);
    expect([derivedColor('luckycoin'), derivedColor('pepecoin'), derivedColor('junkcoin')])
      .toMatchInlineSnapshot(`
      [
        "#A63054",
        "#3067A6",
        "#A66B30",
      ]
    `);
    const derived = new Set(ASSETS.map((a) => derivedColor(a.id)));
    expect(derived.size).toBeGreaterThan(ASSETS.length * 0.8);
  });

  it('converts HSL to hex', () => {
    expect(hslToHex(0, 1, 0.5)).toBe('#FF0000');
    expect(hslToHex(120, 1, 0.5)).toBe('#00FF00');
    expect(hslToHex(240, 1, 0.5)).toBe('#0000FF');
    expect(hslToHex(0, 0, 1)).toBe('#FFFFFF');
  });

  it('every catalog badge has text at WCAG AA contrast (4.5:1) on its fill', () => {
    for (const a of ASSETS) {
      const { fill, text } = coinColor(a.id);
      expect(contrast(fill, text), a.id).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('badgeSvg', () => {
  it('is well-formed, accessible and names the coin', () => {
    const svg = badgeSvg(LTC);
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attrs).toMatchObject({
      xmlns: 'http://www.w3.org/2000/svg',
      role: 'img',
      'aria-label': 'Litecoin (LTC)',
      viewBox: '0 0 64 64',
    });
    expect(findAll(root, 'title')[0]?.text).toBe('Litecoin (LTC)');
    expect(findAll(root, 'circle')[0]?.attrs.fill).toBe('#345D9D');
    const text = findAll(root, 'text')[0];
    expect(text?.text).toBe('LTC');
    expect(text?.attrs.fill).toBe('#FFFFFF');
  });

  it('is deterministic', () => {
    expect(badgeSvg(LTC)).toBe(badgeSvg({ ...LTC }));
  });

  it('escapes names and tickers', () => {
    const svg = badgeSvg({ id: 'x', symbol: 'a<b', name: 'Q&A "coin" <x>' });
    const root = parseXml(svg);
    expect(root.attrs['aria-label']).toBe('Q&A "coin" <x> (A<B)');
    expect(findAll(root, 'text')[0]?.text).toBe('A<B');
    expect(escapeXml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&apos;');
  });

  it('shrinks the font for longer tickers', () => {
    const size = (symbol: string) =>
      Number(findAll(parseXml(badgeSvg({ id: 'x', symbol, name: 'X' })), 'text')[0]?.attrs['font-size']);
    expect(size('ltc')).toBeGreaterThan(size('doge'));
    expect(size('doge')).toBeGreaterThan(size('render'));
    expect(size('render') * 0.68 * 6).toBeLessThanOrEqual(64 * 0.72 + 0.01);
  });
});

const points = (svg: string): [number, number][] => {
  const line = findAll(parseXml(svg), 'polyline')[0];
  if (!line) return [];
  return (line.attrs.points ?? '').split(' ').map((p) => p.split(',').map(Number) as [number, number]);
};

describe('sparklines', () => {
  const { width, height, pad } = SPARKLINE_BOX;

  it('one point per value, left to right, highest at the top and lowest at the bottom', () => {
    const values = [10, 12, 8, 15, 11];
    const pts = sparklinePoints(values);
    expect(pts).toHaveLength(5);
    expect(pts[0]?.[0]).toBe(pad);
    expect(pts[4]?.[0]).toBe(width - pad);
    for (let i = 1; i < pts.length; i++) expect(pts[i]![0]).toBeGreaterThan(pts[i - 1]![0]);
    expect(pts[3]?.[1]).toBe(pad); // 15, the maximum
    expect(pts[2]?.[1]).toBe(height - pad); // 8, the minimum
    expect(pts[0]?.[1]).toBeCloseTo(pad + ((15 - 10) / 7) * (height - 2 * pad), 9);
  });

  it('draws a flat series across the middle and a single value at the centre', () => {
    expect(sparklinePoints([5, 5, 5]).map(([, y]) => y)).toEqual([height / 2, height / 2, height / 2]);
    expect(sparklinePoints([5])).toEqual([[width / 2, height / 2]]);
    expect(sparklinePoints([])).toEqual([]);
  });

  it('is a well-formed, named SVG, green for a rising week and red for a falling one', () => {
    const up = sparklineSvg(LTC, [100, 90, 110]);
    const root = parseXml(up);
    expect(root.attrs.role).toBe('img');
    expect(root.attrs['aria-label']).toBe('Litecoin (LTC): price over 7 days in USD, up 10.00 %');
    expect(findAll(root, 'title')[0]?.text).toBe(root.attrs['aria-label']);
    expect(findAll(root, 'polyline')[0]?.attrs.stroke).toBe(SPARKLINE_UP);
    expect(points(up)).toHaveLength(3);
    const down = sparklineSvg(LTC, [100, 80]);
    expect(findAll(parseXml(down), 'polyline')[0]?.attrs.stroke).toBe(SPARKLINE_DOWN);
    expect(parseXml(down).attrs['aria-label']).toContain('down 20.00 %');
    expect(sparklineSvg(LTC, [100, 90, 110])).toBe(up);
  });

  it('no history: a valid empty image that says so', () => {
    const svg = sparklineSvg(LTC, []);
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attrs['aria-label']).toBe('Litecoin (LTC): no 7-day price history');
    expect(findAll(root, 'polyline')).toEqual([]);
  });

  it('writes coordinates with at most two decimals', () => {
    const svg = sparklineSvg(LTC, [1, 2, 3, 1.2345, 2.98765, 0.5]);
    for (const [x, y] of points(svg)) {
      expect(String(x)).toMatch(/^\d+(\.\d{1,2})?$/);
      expect(String(y)).toMatch(/^\d+(\.\d{1,2})?$/);
    }
  });
});

describe('parseXml (the test helper)', () => {
  it('refuses what is not well-formed', () => {
    expect(() => parseXml('<svg><title>x</svg>')).toThrow();
    expect(() => parseXml('<svg a="1" a="2"/>')).toThrow();
    expect(() => parseXml('<svg>a & b</svg>')).toThrow();
    expect(() => parseXml('<svg a=1/>')).toThrow();
    expect(() => parseXml('<svg/><svg/>')).toThrow();
    expect(parseXml('<?xml version="1.0"?>\n<svg a="&lt;"><g/></svg>\n').attrs.a).toBe('<');
  });
});
