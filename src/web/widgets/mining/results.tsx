/// <reference lib="dom" />
/**
 * What the widget shows back: the expected results per day and per month, the network's figures and where the
 * figures come from. Every figure cell carries its full-precision value in `data-value` (empty when unknown).
 */
import type { JSX } from 'preact';
import type { Figures } from './api.ts';
import type { MiningEstimate } from './calc.ts';
import { DAYS_PER_MONTH } from './calc.ts';
import {
  formatBlockTime,
  formatCoins,
  formatFigure,
  formatHashrate,
  formatShare,
  formatTime,
} from './format.ts';

type Coin = NonNullable<Figures['coin']>;
type Mining = NonNullable<Coin['mining']>;

/** A figure cell: the formatted text, and the full-precision value in `data-value` (empty when unknown). */
function Cell(props: { id: string; value: number | null; text: string; signed?: boolean }): JSX.Element {
  const cls = props.signed && props.value !== null ? (props.value < 0 ? 'loss' : 'gain') : undefined;
  return (
    <td data-testid={props.id} data-value={props.value === null ? '' : String(props.value)} class={cls}>
      {props.text}
    </td>
  );
}

export function ResultsTable(props: {
  est: MiningEstimate | null;
  symbol: string;
  locale: string;
  money: (v: number | null | undefined) => string;
}): JSX.Element {
  const { est, symbol, locale, money } = props;
  return (
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
          <Cell id="revenue-day" value={est?.revenuePerDay ?? null} text={money(est?.revenuePerDay)} />
          <Cell id="revenue-month" value={est?.revenuePerMonth ?? null} text={money(est?.revenuePerMonth)} />
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
          <Cell id="profit-day" value={est?.profitPerDay ?? null} text={money(est?.profitPerDay)} signed />
          <Cell
            id="profit-month"
            value={est?.profitPerMonth ?? null}
            text={money(est?.profitPerMonth)}
            signed
          />
        </tr>
      </tbody>
    </table>
  );
}

/** The network's figures, the price (`priceText`: '…' while the current currency's price loads) and the share. */
export function NetworkPanel(props: {
  mining: Mining;
  symbol: string;
  locale: string;
  price: number | null;
  priceText: string;
  share: number | null;
}): JSX.Element {
  const { mining, symbol, locale } = props;
  return (
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
          {mining.blockReward === null ? '—' : `${formatFigure(mining.blockReward, locale)} ${symbol}`}
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
        <dd data-testid="net-price" data-value={props.price ?? ''}>
          {props.priceText}
        </dd>
        <dt>Your share</dt>
        <dd data-testid="net-share" data-value={props.share ?? ''}>
          {formatShare(props.share, locale)}
        </dd>
      </dl>
    </div>
  );
}

/** Where the network figures and the price come from, and when they were observed. */
export function Sources(props: { mining: Mining | null; coin: Coin | null; host: string }): JSX.Element {
  const { mining, coin } = props;
  return (
    <div class="sources" part="sources" data-testid="sources">
      {mining && (
        <p>
          Network figures: {mining.source === 'demo' ? 'demo data (generated, not real)' : mining.source},
          observed {formatTime(mining.observedAt)}.
        </p>
      )}
      {coin && (
        <p>
          Price: Coin Wallet aggregate, updated {formatTime(coin.lastUpdated)}. Data from {props.host}.
        </p>
      )}
    </div>
  );
}
