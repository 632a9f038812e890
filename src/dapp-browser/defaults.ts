/** The emulator's defaults, apart from its server so that the command line's help can name them cheaply. */

/** Where the emulator listens unless told (`--port`). */
export const DEFAULT_EMULATOR_PORT = 4600;
/** The platform it talks to unless told (`--api`). */
export const DEFAULT_API = 'http://127.0.0.1:4000';
/** The development wallet's starting LKY balance, in base units (`--lky-balance`): 100 LKY (8 decimals). */
export const DEFAULT_LKY_BALANCE = 10_000_000_000n;
/** The seed of the development keys (`--seed`). */
export const DEFAULT_DEV_SEED = 'coinwallet dev wallet';
