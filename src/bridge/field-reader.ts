/** Reads untyped JSON field by field, failing with `<file>: <field path> <what it must be>`. */
import { DeploymentError } from './model.ts';

export type Obj = Record<string, unknown>;

const BASE_UNITS = /^(0|[1-9][0-9]{0,38})$/;

export class Reader {
  constructor(private readonly file: string) {}

  fail(path: string, what: string): never {
    throw new DeploymentError(`${this.file}: ${path} ${what}`);
  }

  /** An object with exactly these fields (optional ones may be absent). */
  obj(v: unknown, path: string, required: string[], optional: string[] = []): Obj {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      this.fail(path || 'the file', 'must be an object');
    const o = v as Obj;
    for (const k of required) if (!(k in o)) this.fail(at(path, k), 'is required');
    for (const k of Object.keys(o)) {
      if (!required.includes(k) && !optional.includes(k)) this.fail(at(path, k), 'is not a known field');
    }
    return o;
  }

  /** An object with any keys (a map). */
  record(v: unknown, path: string): Obj {
    return this.obj(v, path, [], Object.keys((v as object | null) ?? {}));
  }

  arr(v: unknown, path: string, min = 1): unknown[] {
    if (!Array.isArray(v) || v.length < min) this.fail(path, `must be an array of at least ${min} item(s)`);
    return v as unknown[];
  }

  str(v: unknown, path: string, re?: RegExp, what = 'a non-empty string'): string {
    if (typeof v !== 'string' || v === '' || (re && !re.test(v))) this.fail(path, `must be ${what}`);
    return v as string;
  }

  oneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
    if (typeof v !== 'string' || !values.includes(v as T)) {
      this.fail(path, `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
    }
    return v as T;
  }

  int(v: unknown, path: string, min: number, max: number): number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.fail(path, `must be an integer from ${min} to ${max}`);
    }
    return v as number;
  }

  num(v: unknown, path: string, min: number, max: number): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      this.fail(path, `must be a number from ${min} to ${max}`);
    }
    return v as number;
  }

  units(v: unknown, path: string): string {
    return this.str(v, path, BASE_UNITS, 'an amount in base units as a decimal string, e.g. "100000000"');
  }

  unique(values: string[], path: (i: number) => string, what: string): void {
    values.forEach((x, i) => {
      if (values.indexOf(x) !== i) this.fail(path(i), `repeats ${what} "${x}"`);
    });
  }
}

export function at(path: string, k: string | number): string {
  if (typeof k === 'number') return `${path}[${k}]`;
  return path ? `${path}.${k}` : k;
}
