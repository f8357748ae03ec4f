// The two baselines our matcher is shown beside: a plain token
// Jaro-Winkler scan over every listed name, and Fuse.js with its defaults.
import Fuse from 'fuse.js';
import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import type { ListedEntity } from '../src/screening/lists/listed-entity.ts';
import type { Ranker } from './screening-measure.ts';
import { plainWords } from './screening-names.ts';

type Entries = Array<{ id: string; entity: ListedEntity }>;

/**
 * Every listed name scored by token Jaro-Winkler (each word's best partner,
 * averaged both ways), hits from `threshold`. Each query word is compared
 * once with each distinct listed word, then names are scored from those
 * similarities: the same scores as comparing name by name, sooner.
 */
export function jaroWinklerScan(entries: Entries, threshold: number): Ranker {
  const vocabulary = new Map<string, number>();
  const names = entries.flatMap(({ id, entity }) =>
    entity.names.map((n) => ({
      id,
      words: Int32Array.from(plainWords(n.full), (word) => {
        let at = vocabulary.get(word);
        if (at === undefined) vocabulary.set(word, (at = vocabulary.size));
        return at;
      }),
    })),
  );
  const words = [...vocabulary.keys()];
  return (query) => {
    const q = plainWords(query.name);
    if (!q.length) return [];
    const similarity = q.map((x) => Float32Array.from(words, (y) => jaroWinkler(x, y)));
    const best = new Map<string, number>();
    for (const { id, words: listed } of names) {
      if (!listed.length) continue;
      let forward = 0;
      for (const row of similarity) {
        let max = 0;
        for (const w of listed) max = Math.max(max, row[w]!);
        forward += max;
      }
      let backward = 0;
      for (const w of listed) {
        let max = 0;
        for (const row of similarity) max = Math.max(max, row[w]!);
        backward += max;
      }
      const score = (forward / q.length + backward / listed.length) / 2;
      if (score >= threshold && score > (best.get(id) ?? 0)) best.set(id, score);
    }
    return [...best].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([id]) => id);
  };
}

/** Fuse.js defaults (threshold 0.6) on the name field; everything it returns counts as a hit. */
export function fuseSearch(entries: Entries): Ranker {
  const names = entries.flatMap(({ id, entity }) => entity.names.map((n) => ({ id, name: n.full })));
  const fuse = new Fuse(names, { keys: ['name'], includeScore: true });
  return (query) => {
    const ids: string[] = [];
    for (const result of fuse.search(query.name, { limit: 20 })) if (!ids.includes(result.item.id)) ids.push(result.item.id);
    return ids.slice(0, 5);
  };
}
