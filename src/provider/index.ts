/// <reference lib="dom" />
/**
 * Entry point of `/provider.js` (an IIFE built by `build.ts`): the build injects the trusted host origins and the
 * identity origin as `__CW_PROVIDER_CONFIG__`.
 */
import type { ProviderConfig } from './provider.ts';
import { currentScriptOrigin, installProvider } from './provider.ts';

declare const __CW_PROVIDER_CONFIG__: ProviderConfig;

installProvider(window, __CW_PROVIDER_CONFIG__, currentScriptOrigin(document));
