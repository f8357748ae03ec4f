// Where adverse media comes from: a news/search API, or files on disk. A
// provider only finds candidate articles; whether an article is about the
// subject, and whether it is adverse, is decided afterwards by the name
// matcher and the classifier (screen-media.ts), whatever the provider.

export interface MediaArticle {
  /** Stable: the article's URL, else a hash of its content (see articleId). */
  id: string;
  title: string;
  summary?: string;
  body?: string;
  url?: string;
  /** The publication (Reuters, a feed's title ...). */
  source?: string;
  /** ISO 8601 */
  publishedAt?: string;
  language?: string;
}

export interface AdverseMediaQuery {
  name: string;
  kind?: 'PERSON' | 'ORGANIZATION';
  aliases?: string[];
  /** Most articles wanted; providers have their own default. */
  limit?: number;
  /** Least name score, for providers that match names themselves (the local corpus); remote APIs ignore it. */
  threshold?: number;
}

/** Whom adverse media is screened for. */
export type MediaSubject = Pick<AdverseMediaQuery, 'name' | 'kind' | 'aliases'>;

export interface AdverseMediaProvider {
  readonly id: string;
  search(query: AdverseMediaQuery, options?: { signal?: AbortSignal }): Promise<MediaArticle[]>;
}
