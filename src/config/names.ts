/** The names section: the suffix every name ends with and the network whose addresses names link. */
import { ConfigError } from '../config-error.ts';
import { network } from './read.ts';

/** `NAME_SUFFIX`'s default (the names domain's own default, `src/names/name-rules.ts`). */
export const DEFAULT_NAME_SUFFIX = 'coin';

export interface NamesSection {
  /** `NAME_SUFFIX`, default `coin`: names are `<label>.<suffix>`. */
  nameSuffix: string;
  /** `NAME_NETWORK`, default `mainnet`: which network's addresses names may link. */
  nameNetwork: 'mainnet' | 'testnet';
}

export function namesSection(env: NodeJS.ProcessEnv): NamesSection {
  return { nameSuffix: suffix(env.NAME_SUFFIX), nameNetwork: network(env, 'NAME_NETWORK', 'mainnet') };
}

function suffix(v: string | undefined): string {
  if (v === undefined || v === '') return DEFAULT_NAME_SUFFIX;
  if (!/^[a-z][a-z0-9-]{0,30}[a-z0-9]$/.test(v))
    throw new ConfigError('NAME_SUFFIX must be a lowercase label such as coin');
  return v;
}
