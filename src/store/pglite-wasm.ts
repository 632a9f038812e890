/**
 * PGlite's WebAssembly (9 MB), compiled before the store is opened. V8 compiles it on background threads, so a
 * start that asks for it first (`coinwallet serve`, before loading the product's modules) has it compiled meanwhile
 * instead of waiting for it when PGlite opens. Nothing here loads PGlite itself.
 */
import { readFile } from 'node:fs/promises';

let compiling: Promise<WebAssembly.Module | undefined> | undefined;

/** Starts compiling PGlite's WebAssembly (once); a failure leaves PGlite to load it itself. */
export function compilePgliteWasm(): void {
  compiling ??= readFile(new URL(import.meta.resolve('@electric-sql/pglite/pglite.wasm')))
    .then((bytes) => WebAssembly.compile(bytes))
    .catch(() => undefined);
}

/** The module `compilePgliteWasm` compiled, once done; undefined when it was not asked for or failed. */
export const compiledPgliteWasm = (): Promise<WebAssembly.Module | undefined> =>
  compiling ?? Promise.resolve(undefined);
