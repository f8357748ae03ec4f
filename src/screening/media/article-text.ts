import type { MediaArticle } from './provider.ts';

// One text per article, in which name mentions and risk phrases are found
// at offsets: the title, the summary and the body, each its own paragraph.

export function articleText(article: MediaArticle): string {
  const parts = [article.title, article.summary, article.body].map((p) => p?.trim()).filter((p): p is string => Boolean(p));
  // APIs often repeat the summary as the body's first lines: once is enough.
  const unique = parts.filter((part, i) => !parts.some((other, j) => j !== i && other.length > part.length && other.startsWith(part)));
  return [...new Set(unique)].join('\n\n');
}

export interface Sentence {
  start: number;
  end: number;
  text: string;
}

// Words whose trailing full stop does not end a sentence.
const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'gen', 'col', 'lt', 'capt', 'sgt', 'rev', 'hon', 'no', 'nos', 'inc', 'ltd', 'co', 'corp',
  'plc', 'llc', 'vs', 'v', 'etc', 'approx', 'dept', 'est', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Sentences at their offsets: split at . ! ? before a capital or the end, and at line breaks; not after initials and abbreviations. */
export function splitSentences(text: string): Sentence[] {
  const sentences: Sentence[] = [];
  let start = 0;
  const push = (end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) sentences.push({ start: start + lead, end: start + lead + trimmed.length, text: trimmed });
  };
  const boundary = /([.!?]+["'”’)\]]*)(?=\s+["“'‘(\[]?[\p{Lu}\d]|\s*$)|\n+/gu;
  for (const match of text.matchAll(boundary)) {
    const at = match.index!;
    if (match[0][0] !== '\n' && match[1]!.startsWith('.')) {
      const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, at - 12), at))?.[1] ?? '';
      // "J. Smith", "U.S. officials", "Mr. Smith": not an end.
      if (/^\p{L}$/u.test(word) || /\p{L}\.\p{L}$/u.test(word) || ABBREVIATIONS.has(word.toLowerCase())) continue;
    }
    push(at + match[0].length);
    start = at + match[0].length;
  }
  push(text.length);
  return sentences;
}
