/**
 * The developer portal's pure helpers (src/web/pages/portal/logic.ts) against the server's own rules: the client's
 * inline validation must never refuse what the server accepts nor accept what it refuses, the submission window must
 * count as the server counts, and the plans must state the server's limits.
 */
import { describe, expect, it } from 'vitest';
import { ENTERPRISE_MAX_PER_MINUTE, PLAN_LIMITS } from '../../src/access/plans.ts';
import {
  DAPP_CHAINS as SERVER_CHAINS,
  DAPP_LIMITS,
  nextSubmission,
  validateDappInput,
} from '../../src/accounts/dapp-validate.ts';
import { parseBody } from '../../src/accounts/body.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { DappDraft, DappField } from '../../src/web/pages/portal/logic.ts';
import {
  DAPP_CHAINS,
  DAPP_FIELDS,
  LIMITS,
  PLANS,
  dappErrors,
  dappFieldError,
  dappFieldOfCode,
  dappInput,
  keyDescriptionError,
  newKeyStateText,
  planLabel,
  submissionWindow,
  usageSummary,
  usageView,
  walletErrorMessage,
} from '../../src/web/pages/portal/logic.ts';

const valid: DappDraft = {
  name: 'Doge Swap',
  site: 'https://swap.example.com/app',
  icon: 'https://swap.example.com/icon.png',
  description: 'Swap DOGE and LTC from your wallet.\nNo custody.',
  contactEmail: 'team@swap.example.com',
  chains: ['DOGE', 'LTC'],
};

/** The server's verdict: null (accepted) or the field its error code names. */
function serverField(d: DappDraft): DappField | null {
  try {
    validateDappInput({ ...d, chains: [...d.chains] });
    return null;
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const f = dappFieldOfCode(e.code);
    if (!f) throw new Error(`unexpected server code ${e.code}`);
    return f;
  }
}

/** The client's verdict: the first failing field in the server's order, or null. */
function clientField(d: DappDraft): DappField | null {
  const errs = dappErrors(d);
  return DAPP_FIELDS.find((f) => errs[f] !== undefined) ?? null;
}

describe('plans and chains', () => {
  it('state the server’s limits', () => {
    expect(PLANS.map((p) => p.plan)).toEqual(['FREE', 'PRO', 'ENTERPRISE']);
    expect(PLANS.map((p) => p.perMinute)).toEqual([
      PLAN_LIMITS.free,
      PLAN_LIMITS.pro,
      ENTERPRISE_MAX_PER_MINUTE,
    ]);
    expect(PLANS[0]?.limit).toBe('600 requests per minute');
    expect(PLANS[1]?.limit).toBe('3,000 requests per minute');
    expect(PLANS[2]?.limit).toMatch(/^up to 10,000 requests per minute/);
    expect(planLabel('PRO')).toBe('Pro');
  });

  it('offers exactly the server’s chains: the 19 kit tickers and SOL', () => {
    expect(DAPP_CHAINS).toEqual(SERVER_CHAINS);
    expect(DAPP_CHAINS).toHaveLength(20);
    expect(LIMITS.perWindow).toBe(DAPP_LIMITS.perWindow);
    expect(LIMITS.windowMs).toBe(DAPP_LIMITS.windowMs);
    expect(LIMITS.dappName).toBe(DAPP_LIMITS.name);
    expect(LIMITS.dappDescription).toBe(DAPP_LIMITS.description);
  });
});

describe('dapp validation mirrors the server', () => {
  const cases: [string, Partial<DappDraft>][] = [
    ['valid', {}],
    ['valid: emoji name of 80 code points', { name: '🚀'.repeat(80) }],
    ['valid: site with port and query', { site: 'https://app.example.com:8443/x?y=1#z' }],
    ['valid: a bare origin', { site: 'https://app.example.com' }],
    ['valid: emoji ZWJ sequence and ZWNJ between letters', { name: '👩\u200d💻 می\u200cخواهم' }],
    ['IDN host (the parser writes punycode)', { site: 'https://bücher.example/' }],
    ['uppercase host', { site: 'https://App.Example.com/' }],
    ['a quote in the icon', { icon: 'https://x.example/i.png"onerror="alert(1)' }],
    ['a C1 control in the site', { site: 'https://x.example/\u0085' }],
    ['right-to-left override in the name', { name: 'a\u202eb' }],
    ['zero-width space in the description', { description: 'a\u200bb' }],
    ['valid: tab and CRLF in the description', { description: 'a\tb\r\nc' }],
    ['valid: every chain', { chains: [...DAPP_CHAINS] }],
    ['valid: plus address', { contactEmail: 'dev+dapps@mail.example.co.uk' }],
    ['empty name', { name: '' }],
    ['blank name', { name: '   ' }],
    ['name of 81 code points', { name: 'x'.repeat(81) }],
    ['name with a line break', { name: 'a\nb' }],
    ['http site', { site: 'http://swap.example.com' }],
    ['site without scheme', { site: 'swap.example.com' }],
    ['site with a space', { site: 'https://swap.example.com/a b' }],
    ['site with credentials', { site: 'https://user:pw@swap.example.com/' }],
    ['site https:/ with one slash', { site: 'https:/swap.example.com' }],
    ['site too long', { site: `https://example.com/${'a'.repeat(2040)}` }],
    ['data: icon', { icon: 'data:image/png;base64,AAAA' }],
    ['empty icon', { icon: '' }],
    ['blank description', { description: ' \n ' }],
    ['description too long', { description: 'd'.repeat(2001) }],
    ['description with NUL', { description: 'a\u0000b' }],
    ['e-mail without a dot in the domain', { contactEmail: 'dev@localhost' }],
    ['e-mail without @', { contactEmail: 'dev.example.com' }],
    ['empty e-mail', { contactEmail: '' }],
    [
      'e-mail too long',
      { contactEmail: `${'a'.repeat(60)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com` },
    ],
    ['no chains', { chains: [] }],
    ['unknown chain', { chains: ['LTC', 'ETH'] }],
    ['lowercase chain', { chains: ['ltc'] }],
    ['repeated chain', { chains: ['LTC', 'LTC'] }],
    ['several bad fields: the first is reported', { site: 'ftp://x', contactEmail: 'x' }],
  ];
  for (const [name, patch] of cases) {
    it(name, () => {
      const d = { ...valid, ...patch };
      expect(clientField(d)).toBe(serverField(d));
    });
  }

  it('reports every failing field, each with a message saying what is expected', () => {
    const errs = dappErrors({
      name: '',
      site: 'http://x',
      icon: '',
      description: '',
      contactEmail: 'x',
      chains: [],
    });
    expect(Object.keys(errs).sort()).toEqual([...DAPP_FIELDS].sort());
    expect(errs.site).toMatch(/https:\/\//);
    expect(errs.contactEmail).toMatch(/e-mail address/);
    expect(dappFieldError('chains', { ...valid, chains: [] })).toBe('Choose at least one chain.');
  });

  it('sends the chains in the catalog’s order, and the text verbatim', () => {
    const input = dappInput({ ...valid, name: '  spaced  ', chains: ['SOL', 'DOGE', 'LTC'] });
    expect(input.chains).toEqual(['LTC', 'DOGE', 'SOL']);
    expect(input.name).toBe('  spaced  ');
    expect(() => validateDappInput(input)).not.toThrow();
  });

  it('maps the server’s codes to the fields they name', () => {
    expect(dappFieldOfCode('INVALID_SITE')).toBe('site');
    expect(dappFieldOfCode('INVALID_CONTACT_EMAIL')).toBe('contactEmail');
    expect(dappFieldOfCode('INVALID_CHAINS')).toBe('chains');
    expect(dappFieldOfCode('DAPP_LIMIT_REACHED')).toBeNull();
    expect(dappFieldOfCode('AUTH_REQUIRED')).toBeNull();
  });
});

describe('the API key description mirrors the server', () => {
  const spec = { description: { type: 'string', required: true, max: 500 } } as const;
  const server = (v: string) => {
    try {
      parseBody({ description: v }, spec);
      return true;
    } catch {
      return false;
    }
  };
  for (const v of [
    'price widget',
    '',
    '  ',
    'x'.repeat(500),
    'x'.repeat(501),
    'a\tb\nc',
    'a\u0007b',
    '🚀'.repeat(250),
  ])
    it(JSON.stringify(v.length > 20 ? `${v.slice(0, 8)}… (${v.length})` : v), () => {
      expect(keyDescriptionError(v) === null).toBe(server(v));
    });
});

describe('the three-per-24-hours window', () => {
  const H = 60 * 60 * 1000;
  const now = Date.UTC(2026, 0, 2, 12);

  it('counts the last 24 hours, whatever became of the requests', () => {
    expect(submissionWindow([], now)).toEqual({ used: 0, left: 3, nextAt: null, freesAt: null });
    expect(submissionWindow([now - 2 * H], now)).toEqual({
      used: 1,
      left: 2,
      nextAt: null,
      freesAt: now + 22 * H,
    });
    // One exactly 24 hours old has left the window; older ones too.
    expect(submissionWindow([now - 24 * H, now - 30 * H], now).used).toBe(0);
  });

  it('when full, the next slot is when the oldest of the last three turns 24 hours old', () => {
    const w = submissionWindow([now - 1 * H, now - 5 * H, now - 3 * H, now - 30 * H], now);
    expect(w).toEqual({ used: 3, left: 0, nextAt: now + 19 * H, freesAt: null });
  });

  it('agrees with the server’s nextSubmission on random histories', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 500; i++) {
      const times = Array.from({ length: Math.floor(rnd() * 7) }, () => now - Math.floor(rnd() * 30 * H));
      const server = nextSubmission(times, now);
      const client = submissionWindow(times, now);
      expect(client.left > 0).toBe(server.allowed);
      if (!server.allowed) expect(client.nextAt).toBe(server.nextAt);
    }
  });
});

describe('the usage chart', () => {
  const t0 = Date.UTC(2026, 0, 1, 10, 0);
  const m = (i: number) => new Date(t0 + i * 60_000).toISOString();
  const label = (x: number) => new Date(x).toISOString().slice(11, 16);

  it('has one line per outcome, oldest first, and a marker at each minute with refusals', () => {
    const v = usageView(
      [
        { minute: m(2), admitted: 5, rateLimited: 2, unauthorized: 0 },
        { minute: m(0), admitted: 1, rateLimited: 0, unauthorized: 0 },
        { minute: m(1), admitted: 0, rateLimited: 0, unauthorized: 3 },
      ],
      label,
    );
    expect(v.empty).toBe(false);
    expect(v.series.map((s) => s.name)).toEqual(['Admitted', 'Rate limited (429)', 'Unauthorized (401)']);
    expect(v.series[0]?.points).toEqual([
      { x: t0, y: 1 },
      { x: t0 + 60_000, y: 0 },
      { x: t0 + 120_000, y: 5 },
    ]);
    expect(new Set(v.series.map((s) => s.dash ?? 'solid')).size).toBe(3); // not told apart by colour alone
    expect(v.totals).toEqual({ admitted: 6, rateLimited: 2, unauthorized: 3 });
    expect(v.markers.map((k) => k.label)).toEqual([
      '10:01: 3 refused as unauthorized (401)',
      '10:02: 2 refused by the rate limit (429)',
    ]);
    expect(usageSummary(v.totals)).toBe(
      '6 requests admitted, 2 refused by the rate limit (429), 3 refused as unauthorized (401) in the last hour.',
    );
  });

  it('says so when there is nothing to show', () => {
    const v = usageView([], label);
    expect(v.empty).toBe(true);
    expect(v.markers).toEqual([]);
    const zeros = usageView([{ minute: m(0), admitted: 0, rateLimited: 0, unauthorized: 0 }], label);
    expect(zeros.empty).toBe(false);
    expect(usageSummary(zeros.totals)).toBe('No requests with this key in the last hour.');
    expect(usageSummary({ admitted: 1, rateLimited: 0, unauthorized: 0 })).toMatch(/^1 request admitted/);
  });
});

describe('wallet errors', () => {
  it('reads as what the user can do', () => {
    expect(walletErrorMessage({ code: 4001, message: 'x', data: { reason: 'USER_REJECTED' } })).toMatch(
      /declined the request in your wallet/,
    );
    expect(
      walletErrorMessage({ code: 4100, message: 'not listed', data: { reason: 'DAPP_NOT_LISTED' } }),
    ).toMatch(/only to listed dapps/);
    expect(walletErrorMessage({ code: 4200, message: 'x', data: { reason: 'NO_WALLET_FOR_CHAIN' } })).toMatch(
      /Litecoin \(LTC\) wallet/,
    );
    expect(walletErrorMessage({ code: -32603, message: 'boom', data: { reason: 'INTERNAL_ERROR' } })).toBe(
      'INTERNAL_ERROR: boom',
    );
    expect(walletErrorMessage(new Error('plain'))).toBe('plain');
  });
});

describe('newKeyStateText: the new-key dialog follows the key', () => {
  it('says pending only while it is pending, then what the administrator decided', () => {
    const k = { limitPerMinute: 3000, rejectionReason: null };
    expect(newKeyStateText({ ...k, status: 'PENDING' })).toMatch(/pending until an administrator approves/);
    expect(newKeyStateText({ ...k, status: 'APPROVED' })).toBe(
      'An administrator approved it: it works now, up to 3,000 requests a minute.',
    );
    expect(newKeyStateText({ ...k, status: 'REJECTED', rejectionReason: 'tell us more' })).toBe(
      'An administrator rejected it: tell us more. It will not work; you may request another.',
    );
    expect(newKeyStateText({ ...k, status: 'REVOKED' })).toBe('It has been revoked and no longer works.');
    for (const status of ['APPROVED', 'REJECTED', 'REVOKED'] as const)
      expect(newKeyStateText({ ...k, status })).not.toMatch(/pending/);
  });
});
