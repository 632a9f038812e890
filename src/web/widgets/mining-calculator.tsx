/// <reference lib="dom" />
/**
 * `<coinwallet-mining-calculator>`: the embeddable mining calculator (docs/mining-widget.md). One script tag and the
 * element on any site:
 *
 * ```html
 * <script src="https://<platform>/widgets/mining-calculator.js" defer></script>
 * <coinwallet-mining-calculator coin="LKY" currency="eur"></coinwallet-mining-calculator>
 * ```
 *
 * Attributes: `coin` (kit ticker or coin id), `currency` (default `usd`), `api` (the platform's origin; default the
 * origin this script was loaded from), and optional starting values `hashrate`, `unit`, `power`,
 * `electricity-cost`, `pool-fee`. The network figures and the price come from the graph (`Coin.mining`,
 * `Coin.price`); the estimate is computed here (`mining/calc.ts`). Shadow DOM with its own styles.
 */
import { render } from 'preact';
import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Figures } from './mining/api.ts';
import { loadFigures, originOfScript, platformBase, resolveCoin, WidgetError } from './mining/api.ts';
import type { HashrateUnit, InputField, MiningEstimate, NetworkFigures } from './mining/calc.ts';
import { calculate, parseAmount } from './mining/calc.ts';
import { formatMoney } from './mining/format.ts';
import type { Fields } from './mining/inputs.tsx';
import { initialFields, MinerForm } from './mining/inputs.tsx';
import { NetworkPanel, ResultsTable, Sources } from './mining/results.tsx';
import { STYLES } from './mining/styles.ts';
import { hostOf, missingNotes, summaryText } from './mining/summary.ts';

export const TAG = 'coinwallet-mining-calculator';

/** The platform this script came from: captured while the script runs (`currentScript` is null afterwards). */
const SCRIPT_ORIGIN = originOfScript((document.currentScript as HTMLScriptElement | null)?.src);

const ATTRIBUTES = [
  'coin',
  'currency',
  'api',
  'hashrate',
  'unit',
  'power',
  'electricity-cost',
  'pool-fee',
] as const;
type Attribute = (typeof ATTRIBUTES)[number];
type Attrs = Record<Attribute, string | null>;

type Load =
  | { state: 'loading'; data: Figures | null; currency: string | null }
  | { state: 'ready'; data: Figures; currency: string }
  | { state: 'error'; error: WidgetError; data: Figures | null; currency: string | null };

function Calculator(props: { attrs: Attrs; locale: string }): JSX.Element {
  const { attrs, locale } = props;
  const coin = resolveCoin(attrs.coin);
  const base = platformBase(attrs.api, SCRIPT_ORIGIN, location.origin);
  const [currency, setCurrency] = useState((attrs.currency ?? 'usd').trim().toLowerCase() || 'usd');
  const [fields, setFields] = useState<Fields>(initialFields(attrs));
  const [load, setLoad] = useState<Load>({ state: 'loading', data: null, currency: null });
  const [attempt, setAttempt] = useState(0);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (!coin) return;
    const ac = new AbortController();
    setLoad((l) => ({ state: 'loading', data: l.data, currency: l.currency }));
    loadFigures(base, { id: coin.id, currency }, ac.signal).then(
      (data) => setLoad({ state: 'ready', data, currency }),
      (err: unknown) => {
        if (ac.signal.aborted) return;
        const error =
          err instanceof WidgetError
            ? err
            : new WidgetError('ERROR', err instanceof Error ? err.message : String(err));
        setLoad((l) => ({ state: 'error', error, data: l.data, currency: l.currency }));
      },
    );
    return () => ac.abort();
  }, [base, coin?.id, currency, attempt]);

  const data = load.data;
  const c = data?.coin ?? null;
  const mining = c?.mining ?? null;
  const symbol = coin?.ticker ?? c?.symbol.toUpperCase() ?? '';
  // The price is only used in the currency it was fetched in (a currency change shows nothing until it arrives).
  const priceCurrent = load.currency === currency;

  const num = (v: string, empty: number): number => parseAmount(v) ?? empty;
  const hashrate = parseAmount(fields.hashrate);
  const network: NetworkFigures = {
    networkHashrate: mining?.networkHashrate ?? null,
    blockTimeSeconds: mining?.blockTimeSeconds ?? null,
    blockReward: mining?.blockReward ?? null,
    price: priceCurrent ? (c?.price ?? null) : null,
  };
  const result = calculate(
    {
      hashrate: hashrate ?? NaN,
      unit: fields.unit as HashrateUnit,
      powerWatts: num(fields.power, 0),
      electricityPerKwh: num(fields.electricity, 0),
      poolFeePercent: num(fields.fee, 0),
    },
    network,
  );
  const errors: Partial<Record<InputField, string>> = {};
  if (!result.ok) for (const e of result.errors) errors[e.field] ??= e.message;
  if (hashrate === null) errors.hashrate = 'Enter your hashrate';
  const est: MiningEstimate | null = result.ok ? result.estimate : null;
  const notes = !mining
    ? []
    : missingNotes(
        (est?.missing ?? []).filter((m) => m !== 'price' || priceCurrent),
        symbol,
        currency,
      );

  const money = (v: number | null | undefined): string =>
    v === undefined || v === null ? '—' : formatMoney(v, currency, locale);
  const summary = summaryText({
    est,
    coinName: c?.name ?? null,
    mined: !!mining,
    notes,
    symbol,
    money,
    locale,
  });

  // Screen readers hear the result once typing pauses, not on every keystroke.
  useEffect(() => {
    const t = setTimeout(() => setAnnouncement(summary), 700);
    return () => clearTimeout(t);
  }, [summary]);

  const set = (k: keyof Fields) => (v: string) => setFields((f) => ({ ...f, [k]: v }));
  const currencies = data?.currencies ?? [currency];

  let status: JSX.Element | null = null;
  if (!coin)
    status = (
      <p class="alert" role="alert">
        The <code>coin</code> attribute must be a kit ticker such as LKY or a coin id such as luckycoin
        {attrs.coin ? ` (it is “${attrs.coin}”)` : ''}.
      </p>
    );
  else if (load.state === 'error')
    status = (
      <div class="alert" role="alert" data-testid="error">
        Couldn't load the figures from {hostOf(base)}: {load.error.message} ({load.error.code}).
        <button type="button" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  else if (load.state === 'loading')
    status = (
      <p class="status" role="status" data-testid="loading">
        Loading the figures from {hostOf(base)}…
      </p>
    );
  else if (data && !c)
    status = (
      <p class="alert" role="alert" data-testid="unknown-coin">
        {hostOf(base)} does not track the coin “{attrs.coin}”.
      </p>
    );

  const title = c ? `${c.name} (${symbol})` : (coin?.ticker ?? attrs.coin ?? '');
  // Nothing to calculate with: no coin, a coin the platform does not track, or a first load that failed.
  const fatal = !coin || (data !== null && !c) || (load.state === 'error' && data === null);
  return (
    <section
      class="card"
      part="card"
      aria-labelledby="title"
      aria-busy={coin && load.state === 'loading' ? 'true' : 'false'}
    >
      <h2 id="title">Mining calculator{title ? `: ${title}` : ''}</h2>
      <p class="sub">
        {mining ? `${mining.algorithm} proof of work · ` : ''}estimates at today's network figures
      </p>
      {status}
      {!fatal && (
        <div class="layout">
          <MinerForm
            fields={fields}
            errors={errors}
            set={set}
            currency={currency}
            currencies={currencies}
            setCurrency={setCurrency}
          />

          <div part="results">
            <ResultsTable est={est} symbol={symbol} locale={locale} money={money} />
            {c && !mining && load.state !== 'loading' && (
              <p class="notice" data-testid="no-mining">
                No network figures are known for {c.name}: it is not mined, or no source reports its figures
                here. Expected coins, revenue and profit can't be estimated.
              </p>
            )}
            {notes.length > 0 && (
              <ul class="notes" data-testid="missing">
                {notes.map((n) => (
                  <li key={n}>{n}</li>
                ))}
              </ul>
            )}
            <p class="sr-only" aria-live="polite" data-testid="announcement">
              {announcement}
            </p>

            {mining && (
              <NetworkPanel
                mining={mining}
                symbol={symbol}
                locale={locale}
                price={network.price}
                priceText={priceCurrent ? money(c?.price) : '…'}
                share={est?.share ?? null}
              />
            )}
            <Sources mining={mining} coin={c} host={hostOf(base)} />
            {mining?.source === 'demo' && (
              <p class="notice" data-testid="demo-notice">
                Demo data: these network figures and prices are generated by a seeded demo dataset, not
                observed on the real network.
              </p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

/** The page's language for number formats: the nearest `lang`, else the browser's. */
function localeOf(el: Element): string {
  const lang = el.closest('[lang]')?.getAttribute('lang');
  const candidate = lang || navigator.language || 'en';
  try {
    return Intl.NumberFormat.supportedLocalesOf([candidate])[0] ?? 'en';
  } catch {
    return 'en';
  }
}

class MiningCalculatorElement extends HTMLElement {
  static get observedAttributes(): readonly string[] {
    return ATTRIBUTES;
  }

  private mount: HTMLElement | null = null;

  connectedCallback(): void {
    if (!this.mount) {
      const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
      const style = document.createElement('style');
      style.textContent = STYLES;
      this.mount = document.createElement('div');
      root.append(style, this.mount);
    }
    this.update();
  }

  attributeChangedCallback(): void {
    if (this.mount && this.isConnected) this.update();
  }

  disconnectedCallback(): void {
    if (this.mount) render(null, this.mount);
  }

  private update(): void {
    const attrs = Object.fromEntries(ATTRIBUTES.map((a) => [a, this.getAttribute(a)])) as Attrs;
    // Any attribute change starts over (new coin, platform or starting values).
    const key = ATTRIBUTES.map((a) => attrs[a] ?? '').join('\u0000');
    render(<Calculator key={key} attrs={attrs} locale={localeOf(this)} />, this.mount as HTMLElement);
  }
}

if (!customElements.get(TAG)) customElements.define(TAG, MiningCalculatorElement);
