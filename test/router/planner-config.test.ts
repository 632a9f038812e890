/** `ROUTER_PLANNER`: which query planner the product's router runs (`router/engines/hive.ts`); anything else stops start-up. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('ROUTER_PLANNER', () => {
  it('is rust by default, js when asked, and refuses anything else by name', () => {
    expect(loadConfig({}).routerPlanner).toBe('rust');
    expect(loadConfig({ ROUTER_PLANNER: 'js' }).routerPlanner).toBe('js');
    expect(() => loadConfig({ ROUTER_PLANNER: 'apollo' })).toThrow('ROUTER_PLANNER must be rust or js');
  });
});
