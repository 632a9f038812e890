/**
 * The router's live subscriptions: subscribers of the same operation (document, operation name, variables) form one
 * group, computed once per engine tick by executing the subscription as an operation against the markets subgraph
 * (in process, or over HTTP in scale-out: one fetch per group, whatever its number of subscribers). A group whose
 * answer changed sends each subscriber what changed (`diff.ts`); every subscriber's key is checked on every tick
 * (once per distinct key), and each delivered event is charged to its caller's request and cost budgets. A stream
 * whose key stopped being usable, or whose budget ran out, ends with a coded error event (docs/graph.md).
 */
import { GraphQLError } from 'graphql';
import type { ExecutionResult } from 'graphql';
import type { Caller } from '../../src/access/access.ts';
import type { UsageSink } from '../../src/access/usage.ts';
import { ApiError } from '../../src/core/errors.ts';
import type { Logger } from '../../src/core/log.ts';
import { eventPhase, keyPhase } from '../phases.ts';
import type { HeadInfo, RequestState, RouterPlugin, SharedCost } from '../plugin.ts';
import type { SubgraphAnswer, SubgraphFetch, SubgraphSource } from '../sources/source.ts';
import { changes, computed, same } from './diff.ts';
import type { Computed } from './diff.ts';
import type { PushStream } from './stream.ts';

export interface HubOptions {
  /** The markets subgraph, as the router reaches it. */
  source: SubgraphSource;
  /** The router's plugins: their key phase on every tick, their event phase on every event. */
  plugins: readonly RouterPlugin[];
  usage?: Pick<UsageSink, 'request'> | undefined;
  log: Pick<Logger, 'warn'>;
}

/** What identifies a group and how it is computed. */
export interface GroupSpec {
  key: string;
  fetch: SubgraphFetch;
  /** The root field's response key. */
  responseKey: string;
  /** Events carry only the changed list items (`diff.ts`). */
  itemised: boolean;
}

export interface Subscriber {
  caller: Caller;
  /** The head the API key was presented in, checked again on every tick; null without a key (an address cannot be revoked). */
  head: HeadInfo | null;
  stream: PushStream;
  /** The cost of an event's data, measured like a query's answer. */
  measure(data: Record<string, unknown>): number;
}

interface Member extends Subscriber {
  /** The group version this subscriber was last sent. */
  seen: number;
}

interface Group {
  spec: GroupSpec;
  current: Computed | null;
  previous: Computed | null;
  version: number;
  /** The event from `previous` to `current`, made once per version. */
  delta: Record<string, unknown> | null | undefined;
  /** The measured cost of `delta` (one operation, one answer: the same for every member), once per version. */
  deltaCost: number | undefined;
  members: Set<Member>;
}

/** A stream's last event: one error with its code (and `retryAfter` in seconds when it may be retried). */
export function endEvent(code: string, message: string, retryAfter?: number): ExecutionResult {
  return {
    errors: [new GraphQLError(message, { extensions: { code, ...(retryAfter ? { retryAfter } : {}) } })],
  };
}

const denialEvent = (d: ApiError): ExecutionResult => {
  const retry = Number(d.headers['retry-after'] ?? 0);
  return endEvent(d.code, d.message, retry > 0 ? retry : undefined);
};

export class SubscriptionHub {
  private readonly groups = new Map<string, Group>();
  private running: Promise<void> | null = null;
  private again = false;
  private delivered = 0;

  constructor(private readonly opts: HubOptions) {}

  /** Open streams and groups now, events delivered since start. */
  stats(): { streams: number; groups: number; events: number } {
    let streams = 0;
    for (const g of this.groups.values()) streams += g.members.size;
    return { streams, groups: this.groups.size, events: this.delivered };
  }

  /**
   * Joins `sub` to the group of `spec` and gives its first event: the group's current answer, computed now when the
   * group is new. An answer with errors is returned without joining (the stream then ends with it).
   */
  async join(spec: GroupSpec, sub: Subscriber): Promise<{ joined: boolean; result: ExecutionResult }> {
    let group = this.groups.get(spec.key);
    if (!group?.current) {
      const answer = await this.compute(spec);
      if (answer.errors?.length || !answer.data) return { joined: false, result: asResult(answer) };
      group = this.groups.get(spec.key);
      if (!group) {
        group = {
          spec,
          current: null,
          previous: null,
          version: 0,
          delta: undefined,
          deltaCost: undefined,
          members: new Set(),
        };
        this.groups.set(spec.key, group);
      }
      if (!group.current) this.update(group, answer.data);
    }
    const current = group.current as Computed;
    const member: Member = { ...sub, seen: group.version };
    group.members.add(member);
    const g = group;
    sub.stream.onEnded(() => this.leave(g, member));
    return { joined: true, result: { data: { [current.key]: current.value } } };
  }

  /** A new snapshot is out: computes every group again and delivers (ticks never overlap; one more runs if asked). */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.runTick();
        } while (this.again);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Ends every stream with `event` (shutdown). */
  endAll(event?: ExecutionResult): void {
    for (const g of [...this.groups.values()]) for (const m of [...g.members]) m.stream.end(event);
  }

  private leave(group: Group, member: Member): void {
    group.members.delete(member);
    if (group.members.size === 0 && this.groups.get(group.spec.key) === group)
      this.groups.delete(group.spec.key);
  }

  private compute(spec: GroupSpec): Promise<SubgraphAnswer> {
    return this.opts.source.process(spec.fetch, { headers: {}, subgraphContexts: new Map() });
  }

  private update(group: Group, data: Record<string, unknown>): void {
    const next = computed(group.spec.responseKey, data[group.spec.responseKey], group.spec.itemised);
    if (group.current && same(group.current, next)) return;
    group.previous = group.current;
    group.current = next;
    group.version++;
    group.delta = undefined;
    group.deltaCost = undefined;
  }

  private async runTick(): Promise<void> {
    const groups = [...this.groups.values()];
    if (groups.length === 0) return;
    const answers = await Promise.all(groups.map((g) => this.compute(g.spec)));
    groups.forEach((g, i) => {
      const a = answers[i] as SubgraphAnswer;
      if (a.errors?.length || !a.data) {
        // The stream goes on: this tick's event is skipped, the next tick computes again.
        this.opts.log.warn('subscription tick failed', {
          codes: (a.errors ?? []).map((e) => e.extensions?.['code']),
        });
        return;
      }
      this.update(g, a.data);
    });
    const checks = new Map<string, Promise<Caller | ApiError>>();
    await Promise.all(groups.flatMap((g) => [...g.members].map((m) => this.deliver(g, m, checks))));
  }

  /** The key checked again (the key phase, once per key and tick), then the event (if any) charged and pushed. */
  private async deliver(
    group: Group,
    m: Member,
    checks: Map<string, Promise<Caller | ApiError>>,
  ): Promise<void> {
    const keyId = m.caller.key?.id;
    if (m.head && keyId !== undefined) {
      let check = checks.get(keyId);
      if (!check) {
        check = this.recheck(m.head, m.caller);
        checks.set(keyId, check);
      }
      const who = await check;
      if (who instanceof ApiError)
        return m.stream.end(denialEvent(who), { code: who.code, message: who.message });
      m.caller = who;
    }
    if (!m.stream.open || m.seen === group.version || !group.current) return;
    const data = m.seen === group.version - 1 ? this.deltaOf(group) : changes(null, group.current);
    if (!data) return;
    const shared = data === group.delta;
    const actual = shared && group.deltaCost !== undefined ? group.deltaCost : m.measure(data);
    if (shared) group.deltaCost = actual;
    const cost: SharedCost = { estimated: actual, actual };
    try {
      await eventPhase(this.opts.plugins, { caller: m.caller, headers: {} }, cost);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      return m.stream.end(denialEvent(e), e);
    }
    const budget = cost.budget;
    m.seen = group.version;
    m.stream.push({
      data,
      extensions: {
        cost: { actual, ...(budget ? { budget: { limit: budget.limit, remaining: budget.remaining } } : {}) },
      },
    });
    this.delivered++;
    this.opts.usage?.request(m.caller.plan, 200);
  }

  /** The caller of `head` as the key phase finds it now, or the refusal that ends the stream. */
  private async recheck(head: HeadInfo, caller: Caller): Promise<Caller | ApiError> {
    const state: RequestState = { caller: null, headers: {} };
    try {
      await keyPhase(this.opts.plugins, head, state);
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
    return state.caller ?? caller;
  }

  private deltaOf(group: Group): Record<string, unknown> | null {
    if (group.delta === undefined) group.delta = changes(group.previous, group.current as Computed);
    return group.delta;
  }
}

function asResult(a: SubgraphAnswer): ExecutionResult {
  return {
    ...(a.data !== undefined ? { data: a.data } : {}),
    ...(a.errors
      ? {
          errors: a.errors.map(
            (e) =>
              new GraphQLError(e.message, {
                ...(e.path ? { path: e.path } : {}),
                ...(e.extensions ? { extensions: e.extensions } : {}),
              }),
          ),
        }
      : {}),
  };
}
