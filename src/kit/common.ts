/** What every kit exports besides its `createSDK`: the error type and the public types. */
export { KitError, isApiError, isKitError, isProviderError } from './errors.ts';
export type {
  ApiErrorCode,
  ApiKitError,
  KitErrorCode,
  KitErrorInit,
  KitErrorSource,
  KitLocalErrorCode,
  ProviderErrorCode,
  ProviderKitError,
} from './errors.ts';
export type * from './types.ts';
