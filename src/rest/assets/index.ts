/**
 * The images the price API advertises (`image`, `thumb`, `small`, `large`, trending's `sparkline`), served at the
 * root-relative URLs its presenters write (`src/market/present/common.ts`):
 *
 * - `GET /assets/coins/<id>.svg`: the operator's logo from `COIN_IMAGES_DIR` when there is one, else a generated
 *   badge (ticker on the coin's colour, `src/catalog/colors.ts`). `Cache-Control: public, max-age=86400`.
 * - `GET /assets/sparklines/<id>.svg`: the coin's 7-day sparkline from the current snapshot (USD hourly closes),
 *   `max-age` of the snapshot cadence (`MAX_AGE.trending`, the endpoint that advertises it).
 *
 * Not part of the price API: no key, no rate limit (the access hook guards the price base path only), not in its
 * OpenAPI document. Routes only wire; the SVGs come from `svg.ts`, the files from `logo-folder.ts`.
 */
import type { FastifyInstance } from 'fastify';
import type { MarketSnapshot } from '../../engine/snapshot.ts';
import { commonErrors } from '../errors.ts';
import { COIN_ID } from '../../core/params.ts';
import { MAX_AGE } from '../price/schemas/common.ts';
import { assetErrors, priceErrors } from '../../market/errors.ts';
import { LogoFolder } from './logo-folder.ts';
import { strongEtag } from '../../core/conditional.ts';
import { sendImage } from './send.ts';
import type { Image } from './send.ts';
import { badgeSvg, sparklineSvg } from './svg.ts';
import type { CoinLabel } from './svg.ts';

export interface AssetRoutesOptions {
  /** The coins that have images: the catalog the price API lists in `/coins/list`. */
  coins: readonly CoinLabel[];
  /** The current market snapshot (sparklines); null before the first aggregation (→ 503 NOT_READY). */
  snapshot: () => MarketSnapshot | null;
  /** `COIN_IMAGES_DIR`: the operator's logos (`<id>.svg`, then `<id>.png`); unset → generated badges only. */
  imagesDir?: string | undefined;
}

/**
 * One day for coin images. A badge changes only with a release, a logo when the operator replaces it; the URL
 * carries no version, so a day bounds how long a replaced logo can linger in browsers while sparing list UIs (one
 * image per row of every `/coins/markets` page) a download per view. After that the ETag makes revalidation a 304.
 */
export const COIN_IMAGE_MAX_AGE = 86_400;
/** A sparkline changes with the snapshot: cached as long as the `/search/trending` answer that links it. */
export const SPARKLINE_MAX_AGE = MAX_AGE.trending;

const SVG = 'image/svg+xml';

export async function assetRoutes(app: FastifyInstance, opts: AssetRoutesOptions): Promise<void> {
  const coins = new Map(opts.coins.map((c) => [c.id, c]));
  const logos = opts.imagesDir ? new LogoFolder(opts.imagesDir, (m) => app.log.warn(m)) : null;
  const badges = new Map<string, Image>();
  // Sparklines per snapshot: built once per coin and tick, dropped with the snapshot.
  const sparklines = new WeakMap<MarketSnapshot, Map<string, Image>>();

  /** The coin a file name `<id>.svg` names; anything else → 404 (`src/market/errors.ts`). */
  const coinOf = (dir: 'coins' | 'sparklines', file: string): CoinLabel => {
    const id = file.endsWith('.svg') ? file.slice(0, -4) : '';
    if (!COIN_ID.test(id)) throw assetErrors.noSuchImage(dir, file);
    const coin = coins.get(id);
    if (!coin) throw priceErrors.coinNotFound(id);
    return coin;
  };

  app.get<{ Params: { file: string } }>('/assets/coins/:file', async (req, reply) => {
    const coin = coinOf('coins', req.params.file);
    const logo = logos ? await logos.get(coin.id) : null;
    let image: Image | undefined = logo ?? badges.get(coin.id);
    if (!image) {
      const body = Buffer.from(badgeSvg(coin));
      badges.set(coin.id, (image = { body, type: SVG, etag: strongEtag(body) }));
    }
    return sendImage(req, reply, image, COIN_IMAGE_MAX_AGE);
  });

  app.get<{ Params: { file: string } }>('/assets/sparklines/:file', async (req, reply) => {
    const coin = coinOf('sparklines', req.params.file);
    const snap = opts.snapshot();
    if (!snap) throw commonErrors.notReady();
    let built = sparklines.get(snap);
    if (!built) sparklines.set(snap, (built = new Map()));
    let image = built.get(coin.id);
    if (!image) {
      const body = Buffer.from(sparklineSvg(coin, snap.markets.get(coin.id)?.sparkline7d ?? []));
      built.set(coin.id, (image = { body, type: SVG, etag: strongEtag(body) }));
    }
    return sendImage(req, reply, image, SPARKLINE_MAX_AGE);
  });
}
