import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { words } from '../matching/normalize.ts';
import { parseArticlesJson, parseFeedXml } from './article-formats.ts';
import { articleText } from './article-text.ts';
import { nameLikeWords } from './name-spans.ts';
import { MediaCorpusError } from './media-errors.ts';
import type { AdverseMediaProvider, AdverseMediaQuery, MediaArticle } from './provider.ts';
import { DEFAULT_NAME_THRESHOLD, lookupKeys, SubjectMatcher } from './subject-matcher.ts';

// Articles kept on disk, for offline use and tests: a directory (searched
// recursively) of .json files (an array of articles, or NewsAPI's
// {articles: [...]}) and .rss / .xml / .atom feeds. Loaded once; a search
// returns only articles the name matcher finds the subject in.

const JSON_FILES = new Set(['.json']);
const FEED_FILES = new Set(['.rss', '.xml', '.atom']);

export interface LocalCorpusOptions {
  id?: string;
  /** Least name score for an article to be returned when the query sets none (default: as screening, 0.8). */
  threshold?: number;
  /** Most articles returned when the query sets no limit (default 100). */
  limit?: number;
}

interface Entry {
  article: MediaArticle;
  text: string;
  /** Lookup keys of the text's capitalised words: an article sharing none with the subject cannot name it. */
  keys: Set<string>;
}

async function readArticles(file: string): Promise<MediaArticle[]> {
  const content = await readFile(file, 'utf8');
  try {
    if (JSON_FILES.has(extname(file).toLowerCase())) {
      let value: unknown;
      try {
        value = JSON.parse(content);
      } catch (error) {
        throw new Error(`not valid JSON (${(error as Error).message})`);
      }
      return parseArticlesJson(value);
    }
    return parseFeedXml(content);
  } catch (error) {
    throw new MediaCorpusError(file, (error as Error).message, { cause: error });
  }
}

export class LocalCorpusProvider implements AdverseMediaProvider {
  readonly id: string;
  private readonly entries: Entry[];

  private constructor(articles: MediaArticle[], private readonly options: LocalCorpusOptions) {
    this.id = options.id ?? 'local-corpus';
    const byId = new Map<string, MediaArticle>();
    for (const article of articles) if (!byId.has(article.id)) byId.set(article.id, article);
    this.entries = [...byId.values()].map((article) => {
      const text = articleText(article);
      return { article, text, keys: new Set(nameLikeWords(text).flatMap((w) => words(w)).flatMap(lookupKeys)) };
    });
  }

  static fromArticles(articles: MediaArticle[], options: LocalCorpusOptions = {}): LocalCorpusProvider {
    return new LocalCorpusProvider(articles, options);
  }

  /** Reads every article file under directory (files in other formats are ignored); a malformed file fails the load, naming the file. */
  static async load(directory: string, options: LocalCorpusOptions = {}): Promise<LocalCorpusProvider> {
    const names = (await readdir(directory, { recursive: true })).sort();
    const files = names.filter((name) => JSON_FILES.has(extname(name).toLowerCase()) || FEED_FILES.has(extname(name).toLowerCase()));
    const articles = (await Promise.all(files.map((name) => readArticles(join(directory, name))))).flat();
    return new LocalCorpusProvider(articles, options);
  }

  get size(): number {
    return this.entries.length;
  }

  /** Every article loaded (duplicates by id kept once). */
  get articles(): MediaArticle[] {
    return this.entries.map((e) => e.article);
  }

  async search(query: AdverseMediaQuery, options: { signal?: AbortSignal } = {}): Promise<MediaArticle[]> {
    options.signal?.throwIfAborted();
    const matcher = SubjectMatcher.for(query);
    const threshold = query.threshold ?? this.options.threshold ?? DEFAULT_NAME_THRESHOLD;
    const found: Array<{ article: MediaArticle; score: number }> = [];
    for (const entry of this.entries) {
      if (![...matcher.keys].some((key) => entry.keys.has(key))) continue;
      const best = Math.max(0, ...matcher.mentions(entry.text, threshold).map((m) => m.score));
      if (best > 0) found.push({ article: entry.article, score: best });
    }
    return found
      .sort((a, b) => b.score - a.score || (b.article.publishedAt ?? '').localeCompare(a.article.publishedAt ?? ''))
      .slice(0, query.limit ?? this.options.limit ?? 100)
      .map((f) => f.article);
  }
}
