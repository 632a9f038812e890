/** The 20 kit packages: the complete kit and one per kit coin, in wallet order (the server serves the same list). */
import { kitPackages } from '../../src/server/browser/kit-packages.ts';
import type { KitPackage } from '../../src/server/browser/kit-packages.ts';

export type KitSpec = KitPackage;

export function kitSpecs(): KitSpec[] {
  return kitPackages();
}
