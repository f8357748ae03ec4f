import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { htmlToText } from './html-text.ts';
import type { MediaArticle } from './provider.ts';

// The article formats the providers read: JSON in the NewsAPI shape (or our
// own MediaArticle shape), RSS 2.0 (and 1.0) items and Atom entries. Parse
// errors are plain Errors with the reason; callers add where it came from.

type Node = Record<string, unknown>;

/** The article's URL, else a hash of its content: the same article gets the same id on every load. */
export function articleId(article: Omit<MediaArticle, 'id'>): string {
  if (article.url) return article.url;
  const content = [article.title, article.publishedAt, article.source, article.summary, article.body].map((v) => v ?? '').join('\u0000');
  return `sha256:${createHash('sha256').update(content).digest('hex').slice(0, 32)}`;
}

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && '#text' in value) return text((value as Node)['#text']);
  return '';
};
const clean = (value: unknown) => htmlToText(text(value)) || undefined;
const isoDate = (value: unknown) => {
  const parsed = Date.parse(text(value).trim());
  return Number.isNaN(parsed) ? undefined : new Date(parsed).toISOString();
};

function article(fields: Omit<MediaArticle, 'id'> & { id?: string }): MediaArticle {
  const { id, ...rest } = fields;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== '')) as Omit<MediaArticle, 'id'>;
  return { id: id || articleId(defined), ...defined };
}

/** Articles of a JSON document: an array of articles, or `{articles: [...]}` as NewsAPI answers. */
export function parseArticlesJson(value: unknown): MediaArticle[] {
  const node = value as Node | null;
  if (node && !Array.isArray(node) && node.status === 'error') throw new Error(`the API reported an error: ${text(node.message) || text(node.code)}`);
  const items = Array.isArray(value) ? value : Array.isArray(node?.articles) ? (node!.articles as unknown[]) : null;
  if (!items) throw new Error('expected an array of articles or an object with an "articles" array');
  const articles: MediaArticle[] = [];
  items.forEach((item, i) => {
    if (!item || typeof item !== 'object') throw new Error(`article ${i + 1} is not an object`);
    const a = item as Node;
    const title = clean(a.title);
    if (!title) throw new Error(`article ${i + 1} has no title`);
    // NewsAPI's placeholder for articles withdrawn by their publisher.
    if (title === '[Removed]') return;
    const source = typeof a.source === 'object' && a.source ? text((a.source as Node).name) : text(a.source);
    articles.push(article({
      id: typeof a.id === 'string' ? a.id : undefined,
      title,
      summary: clean(a.summary ?? a.description),
      // NewsAPI truncates content and says by how much: the marker is not text.
      body: clean(a.body ?? a.content)?.replace(/\s*(?:…|\.\.\.)?\s*\[\+\d+ chars\]$/, ''),
      url: text(a.url).trim() || undefined,
      source: source.trim() || undefined,
      publishedAt: isoDate(a.publishedAt ?? a.published_at ?? a.date),
      language: text(a.language ?? a.lang).trim() || undefined,
    }));
  });
  return articles;
}

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, trimValues: true, removeNSPrefix: true, htmlEntities: true,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
});

const nodes = (value: unknown): Node[] => (Array.isArray(value) ? value : value && typeof value === 'object' ? [value] : []) as Node[];

/** An RSS item's link is text; an Atom link (also found inside RSS) is an element with href. */
function linkOf(links: unknown): string | undefined {
  const all = Array.isArray(links) ? links : links === undefined ? [] : [links];
  const href = (l: unknown) => (typeof l === 'object' && l ? text((l as Node)['@href']) : text(l)).trim();
  const alternate = all.find((l) => typeof l !== 'object' || !(l as Node)['@rel'] || (l as Node)['@rel'] === 'alternate');
  return (alternate !== undefined ? href(alternate) : all.length ? href(all[0]) : '') || undefined;
}

function rssItem(item: Node, channel: Node): MediaArticle {
  const guid = text(item.guid).trim();
  const permalink = typeof item.guid === 'object' ? (item.guid as Node)['@isPermaLink'] !== 'false' : /^https?:\/\//.test(guid);
  return article({
    title: clean(item.title) ?? '',
    summary: clean(item.description),
    body: clean(item.encoded),
    url: linkOf(item.link) ?? (permalink && guid ? guid : undefined),
    source: clean(item.source) ?? clean(channel.title),
    publishedAt: isoDate(item.pubDate ?? item.date),
    language: text(item.language ?? channel.language).trim() || undefined,
  });
}

function atomEntry(entry: Node, feed: Node): MediaArticle {
  return article({
    title: clean(entry.title) ?? '',
    summary: clean(entry.summary),
    body: clean(entry.content),
    url: linkOf(entry.link) ?? (/^https?:\/\//.test(text(entry.id)) ? text(entry.id).trim() : undefined),
    source: clean((entry.source as Node | undefined)?.title) ?? clean(feed.title),
    publishedAt: isoDate(entry.published ?? entry.updated),
    language: text(entry['@lang'] ?? feed['@lang']).trim() || undefined,
  });
}

/** Articles of an RSS 2.0 (or 1.0) or Atom document. */
export function parseFeedXml(xml: string): MediaArticle[] {
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw new Error(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  const document = parser.parse(xml) as Node;
  const rss = document.rss as Node | undefined;
  const rdf = document.RDF as Node | undefined;
  const feed = document.feed as Node | undefined;
  let articles: MediaArticle[];
  if (rss || rdf) {
    const channel = nodes((rss ?? rdf)!.channel)[0] ?? {};
    // RSS 1.0 puts its items beside the channel, RSS 2.0 inside it.
    articles = nodes(channel.item ?? rdf?.item).map((item) => rssItem(item, channel));
  } else if (feed) {
    articles = nodes(feed.entry).map((entry) => atomEntry(entry, feed));
  } else {
    throw new Error('neither an RSS channel nor an Atom feed');
  }
  articles.forEach((a, i) => {
    if (!a.title) throw new Error(`item ${i + 1} has no title`);
  });
  return articles;
}
