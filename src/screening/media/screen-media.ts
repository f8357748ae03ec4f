import { articleText } from './article-text.ts';
import { classifyRisk, MEDIA_CLASSIFIER_VERSION, type RiskAssessment } from './classify.ts';
import type { AdverseMediaProvider, MediaArticle, MediaSubject } from './provider.ts';
import { DEFAULT_NAME_THRESHOLD, SubjectMatcher } from './subject-matcher.ts';

// Adverse media screening of one subject: candidate articles from a
// provider, kept when the name matcher finds the subject in them and the
// classifier finds a risk category about the subject. Articles about the
// subject without any risk category are not findings (they are dropped).

export interface AdverseMediaFinding {
  article: MediaArticle;
  nameMatch: {
    /** The article's words that matched, as written. */
    matchedText: string;
    score: number;
    /** The subject's name or alias it matched. */
    matchedName: string;
    /** How many times the article names the subject. */
    mentions: number;
  };
  categories: RiskAssessment[];
  /** 0..1: the name score times the combined category confidence. */
  relevance: number;
  classifierVersion: string;
}

export interface ScreenMediaOptions {
  /** Least name score for an article to be about the subject (default 0.8, as for watchlists). */
  threshold?: number;
  /** Most findings returned (default 20). */
  limit?: number;
  /** Most articles asked of the provider (default 100). */
  candidates?: number;
  /** Least category confidence reported (default MIN_CATEGORY_CONFIDENCE). */
  minConfidence?: number;
  signal?: AbortSignal;
}

/** The finding an article makes about the subject, or null when it does not name the subject or is not adverse. */
export function assessArticle(article: MediaArticle, matcher: SubjectMatcher, options: Pick<ScreenMediaOptions, 'threshold' | 'minConfidence'> = {}): AdverseMediaFinding | null {
  const text = articleText(article);
  const mentions = matcher.mentions(text, options.threshold ?? DEFAULT_NAME_THRESHOLD);
  if (!mentions.length) return null;
  const categories = classifyRisk(text, matcher.references(text, mentions), { minConfidence: options.minConfidence });
  if (!categories.length) return null;
  const best = mentions.reduce((a, b) => (b.score > a.score ? b : a));
  const adverse = 1 - categories.reduce((rest, c) => rest * (1 - c.confidence), 1);
  return {
    article,
    nameMatch: { matchedText: best.text, score: best.score, matchedName: best.matchedName, mentions: mentions.length },
    categories,
    relevance: Math.round(best.score * adverse * 1000) / 1000,
    classifierVersion: MEDIA_CLASSIFIER_VERSION,
  };
}

export async function screenAdverseMedia(provider: AdverseMediaProvider, subject: MediaSubject, options: ScreenMediaOptions = {}): Promise<AdverseMediaFinding[]> {
  const matcher = SubjectMatcher.for(subject);
  const articles = await provider.search(
    { name: subject.name, kind: subject.kind, aliases: subject.aliases, limit: options.candidates ?? 100, threshold: options.threshold ?? DEFAULT_NAME_THRESHOLD },
    { signal: options.signal },
  );
  const seen = new Set<string>();
  const findings: AdverseMediaFinding[] = [];
  for (const article of articles) {
    if (seen.has(article.id)) continue;
    seen.add(article.id);
    const finding = assessArticle(article, matcher, options);
    if (finding) findings.push(finding);
  }
  return findings
    .sort((a, b) => b.relevance - a.relevance || (b.article.publishedAt ?? '').localeCompare(a.article.publishedAt ?? '') || a.article.id.localeCompare(b.article.id))
    .slice(0, options.limit ?? 20);
}
