import type { ListedEntity } from '../lists/listed-entity.ts';
import { DEFAULT_THRESHOLD, NameIndex } from '../matching/name-index.ts';
import { nameTokens, words } from '../matching/normalize.ts';
import { deletions, skeleton } from '../matching/phonetic.ts';
import { tokenSimilarity } from '../matching/similarity.ts';
import { candidateSpans, type TextSpan } from './name-spans.ts';
import type { MediaSubject } from './provider.ts';

// Whether, and where, an article names the subject: the screening name
// matcher (a NameIndex over the subject's name and aliases) scores every
// candidate name span of the text, so that a news mention is judged exactly
// as a watchlist entry would be.

/** The same default as watchlist screening (one constant, so they cannot drift apart). */
export const DEFAULT_NAME_THRESHOLD = DEFAULT_THRESHOLD;

export interface NameMention extends TextSpan {
  score: number;
  /** Which of the subject's names (primary or alias) it matched. */
  matchedName: string;
}

/** Where the text refers to the subject: a full mention, or a surname / short company name ("Haddad said"). */
export interface SubjectReference {
  start: number;
  end: number;
  full: boolean;
}

/** A token's index key and its one-deletion variants: two tokens can only be compared by the index when these sets meet. */
export function lookupKeys(token: string): string[] {
  const key = skeleton(token);
  return key.length >= 3 ? [key, ...deletions(key)] : [key];
}

export class SubjectMatcher {
  /** Lookup keys of every token of every name of the subject. */
  readonly keys: ReadonlySet<string>;
  private readonly cache = new Map<string, { score: number; matchedName: string } | null>();

  private constructor(
    private readonly subject: MediaSubject,
    private readonly index: NameIndex,
    private readonly maxWords: number,
    private readonly referenceTokens: string[],
  ) {
    const tokens = [subject.name, ...(subject.aliases ?? [])].flatMap((name) => nameTokens(name, subject.kind ?? 'OTHER'));
    this.keys = new Set(tokens.flatMap(lookupKeys));
  }

  static for(subject: MediaSubject): SubjectMatcher {
    const names = [subject.name, ...(subject.aliases ?? [])].map((n) => n.trim()).filter(Boolean);
    if (!names.length) throw new Error('the subject has no name');
    const entity: ListedEntity = {
      externalId: 'subject', kind: subject.kind === 'PERSON' ? 'PERSON' : 'ORGANIZATION',
      names: names.map((full, i) => ({ full, strength: i === 0 ? 'PRIMARY' : 'STRONG' })),
      birthDates: [], birthPlaces: [], nationalities: [], countries: [], addresses: [], identifiers: [], programs: [], topics: [],
    };
    const index = NameIndex.build([{ id: 'subject', sourceId: 'adverse-media', listVersion: 'subject', entity }]);
    // Room for a title, a middle name or an initial the subject's record lacks.
    const maxWords = Math.max(...names.map((n) => words(n).length)) + 2;
    // A later "Haddad said" refers back to Muhammad Tariq Haddad; a company is called by its first word.
    const references = names
      .map((n) => nameTokens(n, subject.kind ?? 'OTHER'))
      .map((tokens) => (subject.kind === 'PERSON' ? tokens.at(-1) : tokens[0]))
      .filter((t): t is string => Boolean(t && t.length >= 3));
    return new SubjectMatcher(subject, index, maxWords, [...new Set(references)]);
  }

  private score(span: string, threshold: number) {
    const cacheKey = `${threshold}\u0000${span}`;
    let result = this.cache.get(cacheKey);
    if (result === undefined) {
      const [hit] = this.index.search({ name: span, kind: this.subject.kind }, { threshold, limit: 1 });
      result = hit ? { score: hit.score, matchedName: hit.explanation.name.matched } : null;
      this.cache.set(cacheKey, result);
    }
    return result;
  }

  /** The places the text names the subject, scoring at least threshold; overlapping candidates keep the best. */
  mentions(text: string, threshold = DEFAULT_NAME_THRESHOLD): NameMention[] {
    const scored: NameMention[] = [];
    for (const span of candidateSpans(text, this.maxWords)) {
      const result = this.score(span.text, threshold);
      if (result) scored.push({ ...span, ...result });
    }
    // Best score first; among equals the longer span ("Dr. Ayman Zawahiri" over "Ayman Zawahiri").
    scored.sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
    const kept: NameMention[] = [];
    for (const mention of scored) {
      if (!kept.some((k) => mention.start < k.end && k.start < mention.end)) kept.push(mention);
    }
    return kept.sort((a, b) => a.start - b.start);
  }

  /** Full mentions, plus capitalised words close to the subject's surname (persons) or first name word (organizations). */
  references(text: string, mentions: NameMention[]): SubjectReference[] {
    const found: SubjectReference[] = mentions.map((m) => ({ start: m.start, end: m.end, full: true }));
    const wanted = this.referenceTokens.map((t) => ({ text: t, key: skeleton(t), weight: 1 }));
    for (const match of text.matchAll(/\p{Lu}[\p{L}\p{M}'’-]*/gu)) {
      const start = match.index!;
      const end = start + match[0].length;
      if (mentions.some((m) => start < m.end && m.start < end)) continue;
      const token = nameTokens(match[0].replace(/['’]s$/i, ''), this.subject.kind ?? 'OTHER').at(-1);
      if (!token || token.length < 3) continue;
      const candidate = { text: token, key: skeleton(token), weight: 1 };
      if (wanted.some((w) => tokenSimilarity(w, candidate) >= 0.9)) found.push({ start, end, full: false });
    }
    return found.sort((a, b) => a.start - b.start);
  }
}
