import { errorCatalog } from '../core/errors.ts';

/**
 * Errors of what the server itself serves besides the APIs: the landing page (`/`), the documentation files
 * (`/docs/*.md`) and the kits' tarballs (`/kits/*.tgz`).
 */
export const serverErrors = errorCatalog('server', {
  /** `GET /` with an `Accept` header that allows none of the types the page has (sent as JSON regardless). */
  notAcceptable: {
    status: 406,
    code: 'NOT_ACCEPTABLE',
    message: (offered: readonly string[]) =>
      `this resource is served as ${offered.join(' or ')}: send an Accept header that allows one of them (or none)`,
  },
  /** `/docs/<file>` that is not one of the documentation pages. */
  noSuchDoc: {
    status: 404,
    code: 'NOT_FOUND',
    message: (file: string) =>
      `no documentation page "${file.slice(0, 100)}": the pages are listed at / (GET / with Accept: application/json)`,
  },
  /** `/kits/<file>` that names no kit package. */
  noSuchKit: {
    status: 404,
    code: 'NOT_FOUND',
    message: (file: string) =>
      `no kit "${file.slice(0, 100)}": the kits are /kits/kit.tgz (all coins) and /kits/kit-<ticker>.tgz with a lowercase kit ticker such as kit-ltc.tgz`,
  },
  /**
   * A kit package this server has not been given: `dist/kits/<dir>/` has no package.json. A 404 rather than a 503,
   * so that `npm install <url>` fails at once instead of retrying a server-side condition no retry can change.
   */
  kitsNotBuilt: {
    status: 404,
    code: 'KITS_NOT_BUILT',
    message: (file: string) =>
      `the kit ${file} is not built on this server: run \`npm run build:kits\` in the product's directory (it writes dist/kits/), then ask again`,
  },
});
