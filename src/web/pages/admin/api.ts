/// <reference lib="dom" />
/**
 * The dashboard's graph access: `gql` with the signed-in credential, where a "not signed in" answer (a wrong,
 * expired or ended token) sends the page back to the sign-in form, and FORBIDDEN to the "administrators only" notice.
 */
import { gql, GraphError } from '../../shared/graph.ts';
import type { WebDocument } from '../../shared/graph.ts';
import { SIGNED_OUT_CODES } from './auth.ts';

export interface Api {
  call<TResult, TVariables>(doc: WebDocument<TResult, TVariables>, variables: TVariables): Promise<TResult>;
}

export function createApi(
  token: string,
  on: { signedOut(message: string): void; forbidden(message: string): void },
): Api {
  return {
    async call(doc, variables) {
      try {
        return await gql(doc, variables, { token });
      } catch (e) {
        if (e instanceof GraphError) {
          if (SIGNED_OUT_CODES.has(e.code)) on.signedOut(`Signed out: ${e.message} (${e.code}).`);
          else if (e.code === 'FORBIDDEN') on.forbidden(e.message);
        }
        throw e;
      }
    },
  };
}

/** An error as the page shows it: the API's code and message (they say what was expected). */
export function errorText(e: unknown): string {
  if (e instanceof GraphError) return `${e.message} (${e.code})`;
  return e instanceof Error ? e.message : String(e);
}
