/** `ROUTER_ENGINE`: which engine the product's router runs on (`router/engines/`); anything else stops start-up. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

describe('ROUTER_ENGINE', () => {
  it('is apollo by default, hive when asked, and refuses anything else by name', () => {
    expect(loadConfig({}).routerEngine).toBe('apollo');
    expect(loadConfig({ ROUTER_ENGINE: 'hive' }).routerEngine).toBe('hive');
    expect(() => loadConfig({ ROUTER_ENGINE: 'apollo-router' })).toThrow(
      'ROUTER_ENGINE must be apollo or hive',
    );
  });
});
