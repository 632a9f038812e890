import { accountErrors } from './errors.ts';

/**
 * Strict JSON bodies for the accounts endpoints: the body is an object, every field is known, typed and within its
 * lengths. Anything else is a 400 whose message names the field (`INVALID_BODY`, `UNKNOWN_FIELD`). Text is kept as
 * sent (no escaping: SQL is parameterised and JSON is encoded on the way out); only characters PostgreSQL cannot store
 * or that have no place in text (NUL and other control characters but tab and line breaks, lone surrogates) are
 * refused.
 */

/** One field's rule. `null` for an optional field means the field is absent. */
export type FieldRule =
  | {
      type: 'string';
      required?: boolean;
      /** Most characters; also the least (after trimming) is 1 when required. */
      max: number;
      /** The only values accepted. */
      oneOf?: readonly string[];
    }
  | { type: 'integer'; required?: boolean; min: number; max: number }
  | { type: 'boolean'; required?: boolean };

export type BodySpec = Readonly<Record<string, FieldRule>>;

type ValueOf<R extends FieldRule> = R extends { type: 'string'; oneOf: readonly (infer E)[] }
  ? E
  : R extends { type: 'string' }
    ? string
    : R extends { type: 'integer' }
      ? number
      : boolean;

type RequiredKeys<S extends BodySpec> = {
  [K in keyof S]: S[K] extends { required: true } ? K : never;
}[keyof S];

/** The parsed body: required fields present, optional ones possibly undefined. */
export type Parsed<S extends BodySpec> = { [K in RequiredKeys<S>]: ValueOf<S[K]> } & {
  [K in Exclude<keyof S, RequiredKeys<S>>]?: ValueOf<S[K]> | undefined;
};

// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]|\p{Cs}/u;

/** Validates `body` against `spec`. An absent body counts as `{}` (endpoints whose fields are all optional). */
export function parseBody<S extends BodySpec>(body: unknown, spec: S): Parsed<S> {
  const known = Object.keys(spec);
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw accountErrors.invalidBody('body', 'must be a JSON object');
  const input = body as Record<string, unknown>;
  for (const field of Object.keys(input)) {
    if (!Object.hasOwn(spec, field)) throw accountErrors.unknownField(field, known);
  }
  const out: Record<string, unknown> = {};
  for (const [field, rule] of Object.entries(spec)) {
    const v = Object.hasOwn(input, field) ? input[field] : undefined;
    if (v === undefined || v === null) {
      if (rule.required) throw accountErrors.invalidBody(field, `is required: ${expected(rule)}`);
      continue;
    }
    out[field] = check(field, v, rule);
  }
  return out as Parsed<S>;
}

function check(field: string, v: unknown, rule: FieldRule): unknown {
  switch (rule.type) {
    case 'string': {
      if (typeof v !== 'string') throw accountErrors.invalidBody(field, `must be ${expected(rule)}`);
      if (v.length > rule.max || (rule.required && v.trim() === ''))
        throw accountErrors.invalidBody(field, `must be ${expected(rule)}`);
      if (FORBIDDEN_CHARS.test(v))
        throw accountErrors.invalidBody(
          field,
          'must not contain control characters (other than tab and line breaks) or unpaired surrogates',
        );
      if (rule.oneOf && !rule.oneOf.includes(v))
        throw accountErrors.invalidBody(field, `must be ${expected(rule)}`);
      return v;
    }
    case 'integer':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < rule.min || v > rule.max)
        throw accountErrors.invalidBody(field, `must be ${expected(rule)}`);
      return v;
    case 'boolean':
      if (typeof v !== 'boolean') throw accountErrors.invalidBody(field, `must be ${expected(rule)}`);
      return v;
  }
}

function expected(rule: FieldRule): string {
  switch (rule.type) {
    case 'string':
      if (rule.oneOf) return `one of ${rule.oneOf.join(', ')}`;
      return `a string of ${rule.required ? 1 : 0} to ${rule.max} characters`;
    case 'integer':
      return `an integer from ${rule.min} to ${rule.max}`;
    case 'boolean':
      return 'true or false';
  }
}
