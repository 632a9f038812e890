/**
 * `wallet_sendTransaction` (docs/provider.md §4): the only LKY transaction the emulator sends is a bridge deposit
 * (LKY → wLKY) to the active deployment's deposit address, within its lane's limits and the emulated balance.
 */
import { createHash } from 'node:crypto';
import type { Params } from '../provider/protocol.ts';
import { ERROR_CODES } from '../provider/protocol.ts';
import type { Account } from './dev-wallet.ts';
import { err, invalid } from './host-errors.ts';
import type { PromptText } from './host-session.ts';
import type { BridgeConfig } from './platform.ts';
import { lkyDepositLane } from './platform.ts';
import { formatUnits } from './units.ts';

/** LKY has 8 decimals. */
const LKY_DECIMALS = 8;

/** The deposit a request asks for: `{ kind: 'bridge-deposit', to, amount }` (base units as a decimal string). */
export function depositParams(p: Params): { to: string; amount: bigint } {
  if (p.kind !== 'bridge-deposit') {
    throw invalid(
      'NOT_A_BRIDGE_DEPOSIT',
      'wallet_sendTransaction only makes LKY bridge deposits (kind: "bridge-deposit")',
    );
  }
  if (typeof p.to !== 'string' || typeof p.amount !== 'string' || !/^[1-9]\d{0,29}$/.test(p.amount)) {
    throw invalid(
      'INVALID_PARAMS',
      'a bridge deposit needs { to, amount } (amount: base units as a decimal string)',
    );
  }
  return { to: p.to, amount: BigInt(p.amount) };
}

/** Refuses an amount the LKY balance does not cover (checked again when the user approves). */
export function checkFunds(amount: bigint, balance: bigint): void {
  if (amount > balance) {
    throw invalid('INSUFFICIENT_FUNDS', 'the LKY balance does not cover the amount', {
      balance: balance.toString(),
    });
  }
}

/** Checks the deposit against the deployment's LKY lane and the balance; returns the bridge fee in base units. */
export function depositFee(config: BridgeConfig, to: string, amount: bigint, balance: bigint): bigint {
  const lane = lkyDepositLane(config);
  if (!lane?.depositAddress) {
    throw err(
      ERROR_CODES.unsupportedMethod,
      'UNSUPPORTED_FOR_CHAIN',
      'the active bridge deployment takes no LKY deposits',
    );
  }
  if (lane.status !== 'active') {
    throw invalid('LANE_PAUSED', `LKY deposits are paused: ${lane.pausedReason ?? 'no reason given'}`, {
      pausedReason: lane.pausedReason,
    });
  }
  if (to !== lane.depositAddress) {
    throw invalid(
      'NOT_A_BRIDGE_DEPOSIT',
      `${to} is not the LKY deposit address of the active bridge deployment`,
      {
        depositAddress: lane.depositAddress,
      },
    );
  }
  const min = BigInt(lane.minAmount);
  const max = BigInt(lane.maxAmount);
  if (amount < min || amount > max) {
    throw invalid(
      'AMOUNT_OUT_OF_LIMITS',
      `the amount must be from ${lane.minAmount} to ${lane.maxAmount} base units`,
      {
        minAmount: lane.minAmount,
        maxAmount: lane.maxAmount,
      },
    );
  }
  checkFunds(amount, balance);
  return BigInt(lane.fees.fixed) + (amount * BigInt(Math.round(lane.fees.percent * 1e6))) / 100_000_000n;
}

export function depositPrompt(
  account: Account,
  config: BridgeConfig,
  d: { to: string; amount: bigint; fee: bigint },
): PromptText {
  const { to, amount, fee } = d;
  return {
    title: 'Bridge deposit: LKY → wLKY',
    details: [
      { label: 'Send', value: `${formatUnits(amount, LKY_DECIMALS)} LKY from ${account.address}` },
      { label: 'To (bridge deposit address)', value: to },
      { label: 'Deployment', value: `${config.network} ${config.version}` },
      { label: 'Bridge fee', value: `${formatUnits(fee, LKY_DECIMALS)} LKY` },
      {
        label: 'You receive',
        value: `≈ ${formatUnits(amount > fee ? amount - fee : 0n, LKY_DECIMALS)} wLKY`,
      },
    ],
  };
}

/** The emulated deposit's transaction id: the `n`th deposit of this session, to `to`, at `now`. */
export function depositTxid(n: number, to: string, amount: bigint, now: number): string {
  return createHash('sha256').update(`coinwallet dev deposit\n${n}\n${to}\n${amount}\n${now}`).digest('hex');
}
