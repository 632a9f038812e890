/** Curated categories (`/coins/categories`, `/coins/markets?category=`), stored as data in `categories.json`. */
import data from './categories.json' with { type: 'json' };
import { ASSET_BY_ID } from './assets.ts';
import type { AssetInfo, CategoryInfo } from './types.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Checks the JSON's shape; membership is checked by {@link validateCategories}. */
function parseCategories(raw: unknown): CategoryInfo[] {
  if (!Array.isArray(raw)) throw new Error('categories.json: must be an array');
  return raw.map((c: unknown, i): CategoryInfo => {
    const o = (typeof c === 'object' && c !== null ? c : {}) as Record<string, unknown>;
    const { id, name, description, members } = o;
    if (typeof id !== 'string' || typeof name !== 'string' || typeof description !== 'string') {
      throw new Error(`categories.json[${i}]: id, name and description must be strings`);
    }
    if (!Array.isArray(members) || !members.every((m): m is string => typeof m === 'string')) {
      throw new Error(`categories.json[${i}] (${id}): members must be an array of asset ids`);
    }
    return { id, name, description, members };
  });
}

export const CATEGORIES: readonly CategoryInfo[] = parseCategories(data);

/**
 * Problems with a category list: bad or duplicate slugs, empty or duplicate members, members missing from the
 * asset catalog. An empty array means the list is valid (the catalog test asserts this for {@link CATEGORIES}).
 */
export function validateCategories(
  categories: readonly CategoryInfo[] = CATEGORIES,
  assets: ReadonlyMap<string, AssetInfo> = ASSET_BY_ID,
): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const c of categories) {
    if (!SLUG.test(c.id)) problems.push(`${c.id}: id must be a lowercase slug`);
    if (seen.has(c.id)) problems.push(`${c.id}: duplicate category id`);
    seen.add(c.id);
    if (c.members.length === 0) problems.push(`${c.id}: has no members`);
    const members = new Set<string>();
    for (const m of c.members) {
      if (members.has(m)) problems.push(`${c.id}: duplicate member ${m}`);
      members.add(m);
      if (!assets.has(m)) problems.push(`${c.id}: unknown asset ${m}`);
    }
  }
  return problems;
}
