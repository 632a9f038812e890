/**
 * The generated resolver types (`npm run codegen`) are bound to the domain: parents are the mapped domain types,
 * enum values are the domain's strings, and resolvers receive the subgraph's context. These are compile-time
 * checks (tsc runs them through `npm test`); the runtime assertions only keep vitest honest.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AssetMarket } from '../../src/engine/types.ts';
import type { Account } from '../../src/accounts/types.ts';
import type { Deployment } from '../../src/bridge/model.ts';
import type { MarketsContext } from '../../subgraphs/markets/context.ts';
import type { AccountsContext } from '../../subgraphs/accounts/context.ts';
import type * as Markets from '../../subgraphs/markets/generated/resolvers-types.ts';
import type * as Identity from '../../subgraphs/identity/generated/resolvers-types.ts';
import type * as Bridge from '../../subgraphs/bridge/generated/resolvers-types.ts';
import * as Accounts from '../../subgraphs/accounts/generated/resolvers-types.ts';

describe('generated resolver types', () => {
  it('map Coin to AssetMarket and pass the markets context', () => {
    expectTypeOf<Markets.ResolversParentTypes['Coin']>().toEqualTypeOf<AssetMarket>();
    const coin: Markets.CoinResolvers = {
      __resolveReference: (ref, ctx) => {
        expectTypeOf(ctx).toEqualTypeOf<MarketsContext>();
        return ctx.loaders.coin.load(ref.id);
      },
      price: (parent, { currency }) => (currency === 'usd' ? parent.price.priceUsd : null),
      supply: (parent) => parent.supply,
      lastUpdated: (parent) => parent.price.lastUpdated,
    };
    expect(Object.keys(coin)).toContain('__resolveReference');
  });

  it('map accounts enums to the domain strings', () => {
    expect(Accounts.Plan.Enterprise).toBe('enterprise');
    expect(Accounts.Role.Admin).toBe('admin');
    expect(Accounts.ApiKeyStatus.Pending).toBe('pending');
    expect(Accounts.DappStatus.Delisted).toBe('delisted');
    expectTypeOf<Accounts.ResolversParentTypes['Account']>().toEqualTypeOf<Account>();
    const account: Accounts.AccountResolvers = {
      __resolveReference: (ref, ctx: AccountsContext) => ctx.loaders.account.load(ref.id),
      createdAt: (parent) => parent.createdAt,
    };
    expect(account.createdAt).toBeTypeOf('function');
  });

  it('map the bridge deployment and keep the Coin stub a reference', () => {
    expectTypeOf<Bridge.ResolversParentTypes['BridgeDeployment']>().toEqualTypeOf<Deployment>();
    const coin: Bridge.BridgeCoinResolvers = {
      coin: async (parent, _args, ctx) => {
        const id = await ctx.loaders.coinIdByTicker.load(parent.ticker);
        return id === null ? null : { id };
      },
    };
    expect(coin.coin).toBeTypeOf('function');
    expectTypeOf<Identity.Coin['id']>().toEqualTypeOf<string>();
  });
});
