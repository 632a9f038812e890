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
import type { InputField, MiningEstimate, NetworkFigure, NetworkFigures } from './mining/calc.ts';
import { calculate, DAYS_PER_MONTH, HASHRATE_UNITS, parseAmount } from './mining/calc.ts';
import {
  formatBlockTime,
  formatCoins,
  formatFigure,
  formatHashrate,
  formatMoney,
  formatShare,
  formatTime,
} from './mining/format.ts';
import { STYLES } from './mining/styles.ts';

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

interface Fields {
  hashrate: string;
  unit: string;
  power: string;
  electricity: string;
  fee: string;
}

const DEFAULTS: Fields = { hashrate: '1', unit: 'GH/s', power: '1000', electricity: '0.10', fee: '1' };

type Load =
  | { state: 'loading'; data: Figures | null; currency: string | null }
  | { state: 'ready'; data: Figures; currency: string }
  | { state: 'error'; error: WidgetError; data: Figures | null; currency: string | null };

const hostOf = (base: string): string => {
  try {
    return new URL(base).host;
  } catch {
    return base;
  }
};

/** What a missing network figure means for the estimate, in words. */
function missingNotes(missing: readonly NetworkFigure[], symbol: string, currency: string): string[] {
  const notes: string[] = [];
  const what: string[] = [];
  if (missing.includes('networkHashrate'))
    what.push('the network hashrate is unknown (it needs the difficulty and the block time)');
  if (missing.includes('blockTimeSeconds')) what.push('the block time is unknown');
  if (missing.includes('blockReward')) what.push('the block reward is unknown');
  if (what.length > 0)
    notes.push(
      `${what.join('; ').replace(/^./, (c) => c.toUpperCase())}, so expected coins, revenue and profit can't be estimated.`,
    );
  else if (missing.includes('price'))
    notes.push(
      `There is no ${currency.toUpperCase()} price for ${symbol} right now, so revenue and profit can't be computed.`,
    );
  return notes;
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  error: string | undefined;
  onInput: (v: string) => void;
  children?: JSX.Element;
}): JSX.Element {
  const input = (
    <input
      id={props.id}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      spellcheck={false}
      value={props.value}
      aria-invalid={props.error ? 'true' : 'false'}
      aria-describedby={props.error ? `${props.id}-error` : undefined}
      onInput={(e) => props.onInput((e.currentTarget as HTMLInputElement).value)}
    />
  );
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      {props.children ? (
        <div class="pair">
          {input}
          {props.children}
        </div>
      ) : (
        input
      )}
      {props.error && (
        <p class="field-error" id={`${props.id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A figure cell: the formatted text, and the full-precision value in `data-value` (empty when unknown). */
function Cell(props: { id: string; value: number | null; text: string; signed?: boolean }): JSX.Element {
  const cls = props.signed && props.value !== null ? (props.value < 0 ? 'loss' : 'gain') : undefined;
  return (
    <td data-testid={props.id} data-value={props.value === null ? '' : String(props.value)} class={cls}>
      {props.text}
    </td>
  );
}

function Calculator(props: { attrs: Attrs; locale: string }): JSX.Element {
  const { attrs, locale } = props;
  const coin = resolveCoin(attrs.coin);
  const base = platformBase(attrs.api, SCRIPT_ORIGIN, location.origin);
  const [currency, setCurrency] = useState((attrs.currency ?? 'usd').trim().toLowerCase() || 'usd');
  const [fields, setFields] = useState<Fields>({
    hashrate: attrs.hashrate ?? DEFAULTS.hashrate,
    unit: HASHRATE_UNITS.some((u) => u.unit === attrs.unit) ? (attrs.unit as string) : DEFAULTS.unit,
    power: attrs.power ?? DEFAULTS.power,
    electricity: attrs['electricity-cost'] ?? DEFAULTS.electricity,
    fee: attrs['pool-fee'] ?? DEFAULTS.fee,
  });
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
      unit: fields.unit as (typeof HASHRATE_UNITS)[number]['unit'],
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
  let summary = '';
  if (est && c) {
    if (!mining)
      summary = `No network figures are known for ${c.name}; electricity costs ${money(est.electricityPerDay)} per day.`;
    else if (est.coinsPerDay === null) summary = notes.join(' ');
    else {
      const parts = [`${formatCoins(est.coinsPerDay, locale)} ${symbol}`];
      if (est.revenuePerDay !== null) parts.push(`revenue ${money(est.revenuePerDay)}`);
      parts.push(`electricity ${money(est.electricityPerDay)}`);
      if (est.profitPerDay !== null) parts.push(`profit ${money(est.profitPerDay)}`);
      summary = `Per day: ${parts.join(', ')}.`;
    }
  }

  // Screen readers hear the result once typing pauses, not on every keystroke.
  useEffect(() => {
    const t = setTimeout(() => setAnnouncement(summary), 700);
    return () => clearTimeout(t);
  }, [summary]);

  const set = (k: keyof Fields) => (v: string) => setFields((f) => ({ ...f, [k]: v }));
  const currencies = data?.currencies ?? [currency];
  const code = currency.toUpperCase();

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
          <form part="inputs" aria-label="Your miner" onSubmit={(e) => e.preventDefault()}>
            <Field
              id="hashrate"
              label="Hashrate"
              value={fields.hashrate}
              error={errors.hashrate}
              onInput={set('hashrate')}
            >
              <select
                id="unit"
                aria-label="Hashrate unit"
                value={fields.unit}
                onChange={(e) => set('unit')((e.currentTarget as HTMLSelectElement).value)}
              >
                {HASHRATE_UNITS.map((u) => (
                  <option key={u.unit} value={u.unit}>
                    {u.unit}
                  </option>
                ))}
              </select>
            </Field>
            <Field
              id="power"
              label="Power draw (W)"
              value={fields.power}
              error={errors.powerWatts}
              onInput={set('power')}
            />
            <Field
              id="electricity"
              label={`Electricity cost (${code} per kWh)`}
              value={fields.electricity}
              error={errors.electricityPerKwh}
              onInput={set('electricity')}
            />
            <Field
              id="fee"
              label="Pool fee (%)"
              value={fields.fee}
              error={errors.poolFeePercent}
              onInput={set('fee')}
            />
            <div class="field">
              <label for="currency">Currency</label>
              <select
                id="currency"
                value={currency}
                onChange={(e) => setCurrency((e.currentTarget as HTMLSelectElement).value)}
              >
                {(currencies.includes(currency) ? currencies : [currency, ...currencies]).map((k) => (
                  <option key={k} value={k}>
                    {k.toUpperCase()}
                  </option>
                ))}
              </select>
            </div>
          </form>

          <div part="results">
            <table data-testid="results">
              <caption>Expected results</caption>
              <thead>
                <tr>
                  <td />
                  <th scope="col">Per day</th>
                  <th scope="col">Per month ({DAYS_PER_MONTH} days)</th>
                </tr>
              </thead>
              <tbody>
                <tr>
                  <th scope="row">Coins{symbol ? ` (${symbol})` : ''}</th>
                  <Cell
                    id="coins-day"
                    value={est?.coinsPerDay ?? null}
                    text={formatCoins(est?.coinsPerDay ?? null, locale)}
                  />
                  <Cell
                    id="coins-month"
                    value={est?.coinsPerMonth ?? null}
                    text={formatCoins(est?.coinsPerMonth ?? null, locale)}
                  />
                </tr>
                <tr>
                  <th scope="row">Revenue</th>
                  <Cell
                    id="revenue-day"
                    value={est?.revenuePerDay ?? null}
                    text={money(est?.revenuePerDay)}
                  />
                  <Cell
                    id="revenue-month"
                    value={est?.revenuePerMonth ?? null}
                    text={money(est?.revenuePerMonth)}
                  />
                </tr>
                <tr>
                  <th scope="row">Electricity</th>
                  <Cell
                    id="electricity-day"
                    value={est?.electricityPerDay ?? null}
                    text={money(est?.electricityPerDay)}
                  />
                  <Cell
                    id="electricity-month"
                    value={est?.electricityPerMonth ?? null}
                    text={money(est?.electricityPerMonth)}
                  />
                </tr>
                <tr>
                  <th scope="row">Profit</th>
                  <Cell
                    id="profit-day"
                    value={est?.profitPerDay ?? null}
                    text={money(est?.profitPerDay)}
                    signed
                  />
                  <Cell
                    id="profit-month"
                    value={est?.profitPerMonth ?? null}
                    text={money(est?.profitPerMonth)}
                    signed
                  />
                </tr>
              </tbody>
            </table>
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
              <div class="network" part="network">
                <h3>Network</h3>
                <dl data-testid="network">
                  <dt>Algorithm</dt>
                  <dd data-testid="net-algorithm">{mining.algorithm}</dd>
                  <dt>Difficulty</dt>
                  <dd data-testid="net-difficulty" data-value={mining.difficulty ?? ''}>
                    {formatFigure(mining.difficulty, locale)}
                  </dd>
                  <dt>Block reward</dt>
                  <dd data-testid="net-reward" data-value={mining.blockReward ?? ''}>
                    {mining.blockReward === null
                      ? '—'
                      : `${formatFigure(mining.blockReward, locale)} ${symbol}`}
                  </dd>
                  <dt>Block time</dt>
                  <dd data-testid="net-block-time" data-value={mining.blockTimeSeconds ?? ''}>
                    {formatBlockTime(mining.blockTimeSeconds, locale)}
                  </dd>
                  <dt>Network hashrate</dt>
                  <dd data-testid="net-hashrate" data-value={mining.networkHashrate ?? ''}>
                    {formatHashrate(mining.networkHashrate, locale)}
                  </dd>
                  <dt>Price</dt>
                  <dd data-testid="net-price" data-value={network.price ?? ''}>
                    {priceCurrent ? money(c?.price) : '…'}
                  </dd>
                  <dt>Your share</dt>
                  <dd data-testid="net-share" data-value={est?.share ?? ''}>
                    {formatShare(est?.share ?? null, locale)}
                  </dd>
                </dl>
              </div>
            )}
            <div class="sources" part="sources" data-testid="sources">
              {mining && (
                <p>
                  Network figures:{' '}
                  {mining.source === 'demo' ? 'demo data (generated, not real)' : mining.source}, observed{' '}
                  {formatTime(mining.observedAt)}.
                </p>
              )}
              {c && (
                <p>
                  Price: Coin Wallet aggregate, updated {formatTime(c.lastUpdated)}. Data from {hostOf(base)}.
                </p>
              )}
            </div>
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
