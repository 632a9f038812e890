/// <reference lib="dom" />
/**
 * The widget's form ("Your miner"): hashrate and unit, power draw, electricity cost, pool fee and the currency. The
 * fields hold text as typed; each shows its problem under it, tied to it for screen readers.
 */
import type { JSX } from 'preact';
import type { InputField } from './calc.ts';
import { HASHRATE_UNITS } from './calc.ts';

/** The form's text, as typed. */
export interface Fields {
  hashrate: string;
  unit: string;
  power: string;
  electricity: string;
  fee: string;
}

const DEFAULTS: Fields = { hashrate: '1', unit: 'GH/s', power: '1000', electricity: '0.10', fee: '1' };

/** The starting values: the element's attributes where given (an unknown unit is ignored), else the defaults. */
export function initialFields(attrs: {
  hashrate: string | null;
  unit: string | null;
  power: string | null;
  'electricity-cost': string | null;
  'pool-fee': string | null;
}): Fields {
  return {
    hashrate: attrs.hashrate ?? DEFAULTS.hashrate,
    unit: HASHRATE_UNITS.some((u) => u.unit === attrs.unit) ? (attrs.unit as string) : DEFAULTS.unit,
    power: attrs.power ?? DEFAULTS.power,
    electricity: attrs['electricity-cost'] ?? DEFAULTS.electricity,
    fee: attrs['pool-fee'] ?? DEFAULTS.fee,
  };
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

export function MinerForm(props: {
  fields: Fields;
  errors: Partial<Record<InputField, string>>;
  set: (k: keyof Fields) => (v: string) => void;
  currency: string;
  /** The currencies the platform prices in (the current one is offered even when it is not among them). */
  currencies: readonly string[];
  setCurrency: (c: string) => void;
}): JSX.Element {
  const { fields, errors, set, currency, currencies } = props;
  const code = currency.toUpperCase();
  return (
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
          onChange={(e) => props.setCurrency((e.currentTarget as HTMLSelectElement).value)}
        >
          {(currencies.includes(currency) ? currencies : [currency, ...currencies]).map((k) => (
            <option key={k} value={k}>
              {k.toUpperCase()}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
