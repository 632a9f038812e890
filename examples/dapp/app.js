/* global window, document, location, URL, URLSearchParams */
// The example dapp (README.md), shipped in @coinwallet/kit as example/: the complete kit's browser bundle defines
// `window.CoinWalletKit`. Connect the wallet (inside Coin Wallet's dapp browser), show the accounts and capabilities
// it shares, resolve a name, show prices and one live price.
'use strict';

const { createSDK, isKitError, KIT_COINS, KIT_TICKERS } = window.CoinWalletKit;

// The platform: `?api=` (set by the Platform field) wins over the page's <meta>. Keyless unless `?key=` gives a
// price-API key; a key in a page is public, so use one meant for browsers.
const params = new URLSearchParams(location.search);
const api =
  params.get('api') || document.querySelector('meta[name="coinwallet-api"]').getAttribute('content');
const apiKey = params.get('key');

const $ = (id) => document.getElementById(id);
const row = (cells, attrs = {}) => {
  const tr = document.createElement('tr');
  for (const [k, v] of Object.entries(attrs)) tr.setAttribute(k, v);
  for (const c of cells) {
    const td = document.createElement('td');
    if (typeof c === 'object' && c !== null) {
      td.textContent = c.text;
      if (c.className) td.className = c.className;
    } else td.textContent = c;
    tr.append(td);
  }
  return tr;
};

/** A KitError as one line: where it came from, its code (and the wallet's reason), the message. */
function describeError(e) {
  if (!isKitError(e)) return String(e && e.message ? e.message : e);
  const reason = e.reason ? ` ${e.reason}` : '';
  const wait = e.retryAfterMs ? ` (retry in ${Math.ceil(e.retryAfterMs / 1000)} s)` : '';
  return `${e.code}${reason}: ${e.message}${wait}`;
}

// ---- Platform --------------------------------------------------------------------------------------------------

$('api').textContent = api;
$('api-input').value = api;
$('api-auth').textContent = apiKey ? 'with an API key' : 'keyless';
$('api-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const next = new URL(location.href);
  next.searchParams.set('api', $('api-input').value.trim());
  location.assign(next.href); // a new page, a new SDK
});

let sdk;
try {
  sdk = createSDK({ baseUrl: api, ...(apiKey ? { apiKey } : {}) });
} catch (e) {
  // A malformed platform URL or a credential that is not an API key (INVALID_ARGUMENT): say so, keep the field.
  $('api-error').textContent = describeError(e);
  $('api-error').hidden = false;
  for (const b of document.querySelectorAll('section button')) b.disabled = true;
  throw e;
}

// ---- Wallet ----------------------------------------------------------------------------------------------------

function showAccounts(accounts, capabilities) {
  $('wallet').hidden = false;
  $('accounts').replaceChildren(
    ...(accounts.length
      ? accounts.map((a) =>
          row([a.ticker, { text: a.address, className: 'mono' }], { 'data-testid': `account-${a.ticker}` }),
        )
      : [row(['—', 'the wallet holds none of the requested coins'])]),
  );
  if (capabilities) {
    $('capabilities').replaceChildren(
      ...Object.entries(capabilities).map(([ticker, c]) =>
        row([ticker, c.methods.length ? c.methods.join(', ') : 'none (addresses only)'], {
          'data-testid': `capability-${ticker}`,
        }),
      ),
    );
  }
}

$('connect').addEventListener('click', async () => {
  $('wallet-error').hidden = true;
  $('wallet-status').textContent = 'connecting… (approve in the wallet)';
  $('connect').disabled = true;
  try {
    // All 19 coins: the wallet answers with an account for each coin the user holds.
    const { accounts, capabilities, wallet } = await sdk.connect(KIT_TICKERS);
    $('wallet-status').textContent =
      `connected${wallet ? ` to ${wallet.name}` : ''}: ${accounts.length} account(s)`;
    $('wallet-status').className = 'ok';
    showAccounts(accounts, capabilities);
  } catch (e) {
    $('wallet-status').textContent = 'not connected';
    $('wallet-status').className = 'muted';
    $('wallet-error').textContent = describeError(e);
    $('wallet-error').hidden = false;
  } finally {
    $('connect').disabled = false;
  }
});

sdk.on('accountsChanged', (accounts) => showAccounts(accounts, null));
sdk.on('disconnect', (e) => {
  $('wallet-status').textContent = 'disconnected';
  $('wallet-status').className = 'muted';
  $('wallet').hidden = true;
  $('wallet-error').textContent = describeError(e);
  $('wallet-error').hidden = false;
});

// ---- Names -----------------------------------------------------------------------------------------------------

$('resolve-ticker').replaceChildren(
  ...KIT_COINS.map((c) => {
    const o = document.createElement('option');
    o.value = c.ticker;
    o.textContent = `${c.ticker} (${c.name})`;
    return o;
  }),
);

$('resolve-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const name = $('resolve-name').value.trim();
  const ticker = $('resolve-ticker').value;
  const out = $('resolution');
  out.className = 'muted';
  out.textContent = `resolving ${name} for ${ticker}…`;
  try {
    const r = await sdk.resolve(name, ticker);
    // Three outcomes, never undefined.
    if (r.status === 'found') {
      out.className = 'ok';
      out.textContent = `${r.name} → ${r.ticker} ${r.address}`;
    } else if (r.status === 'name-not-found') {
      out.textContent = `${r.name}: no such name (or it is private)`;
    } else {
      out.textContent = `${r.name} has no ${r.ticker} address linked`;
    }
    out.dataset.status = r.status;
  } catch (e) {
    out.className = 'error';
    out.textContent = describeError(e);
    out.dataset.status = 'error';
  }
});

// ---- Prices ----------------------------------------------------------------------------------------------------

function formatPrice(value, currency) {
  if (currency === 'btc') return `₿ ${value.toPrecision(6)}`;
  return new Intl.NumberFormat('en', {
    style: 'currency',
    currency: currency.toUpperCase(),
    maximumSignificantDigits: 6,
  }).format(value);
}

async function loadPrices() {
  const currency = $('price-currency').value;
  $('price-status').className = 'muted';
  $('price-status').textContent = 'loading…';
  try {
    const { prices, missing } = await sdk.price(
      KIT_COINS.map((c) => c.coinId),
      [currency],
    );
    $('prices').replaceChildren(
      ...KIT_COINS.map((c) => {
        const value = prices[c.coinId][currency];
        const text = missing.includes(c.coinId)
          ? 'not tracked'
          : value === null
            ? 'no quote'
            : formatPrice(value, currency);
        return row([c.name, c.ticker, { text, className: 'num' }], { 'data-testid': `price-${c.coinId}` });
      }),
    );
    $('price-status').textContent =
      `${KIT_COINS.length - missing.length} coins, in ${currency.toUpperCase()}`;
  } catch (e) {
    $('price-status').className = 'error';
    $('price-status').textContent = describeError(e);
  }
}

// ---- Live price ------------------------------------------------------------------------------------------------
// `subscribePrices` pushes Litecoin's price once per engine tick when it changed (GraphQL over SSE); the kit
// reconnects by itself, and says so through `onRetry`. Re-subscribed when the currency changes.

let unsubscribeLive = () => {};

function watchLivePrice() {
  const currency = $('price-currency').value;
  unsubscribeLive();
  $('live-price').textContent = '…';
  $('live-change').textContent = '';
  $('live-status').className = 'muted';
  $('live-status').textContent = 'connecting…';
  unsubscribeLive = sdk.subscribePrices(
    ['litecoin'],
    currency,
    ({ prices }) => {
      const p = prices.litecoin;
      if (!p) return;
      $('live-price').textContent = p.price === null ? 'no quote' : formatPrice(p.price, currency);
      $('live-change').textContent =
        p.change24h === null ? '' : `${p.change24h >= 0 ? '+' : ''}${p.change24h.toFixed(2)} % in 24 h`;
      $('live-status').className = 'muted';
      $('live-status').textContent = `live · updated ${new Date().toLocaleTimeString()}`;
    },
    {
      onRetry: (ms) => {
        $('live-status').textContent = `connection lost: reconnecting in ${Math.ceil(ms / 1000)} s`;
      },
      onError: (e) => {
        $('live-status').className = 'error';
        $('live-status').textContent = describeError(e);
      },
    },
  );
}

$('price-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  void loadPrices();
});
$('price-currency').addEventListener('change', () => {
  void loadPrices();
  watchLivePrice();
});
void loadPrices();
watchLivePrice();
