import { LRUCache } from 'lru-cache';
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

// Notes are shown to reviewers in other tools: the body is never trusted as
// HTML. Markdown is rendered with raw HTML disabled (it comes out escaped),
// then the result is sanitized against a short allow-list as a second line.

const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true });

const ALLOWED = {
  allowedTags: ['p', 'br', 'strong', 'em', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'a', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 's'],
  allowedAttributes: { a: ['href', 'title', 'rel', 'target'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The note's body as safe HTML: Markdown rendered, plain text escaped with line breaks kept. */
export function noteHtml(body: string, format: 'PLAIN' | 'MARKDOWN'): string {
  const html = format === 'MARKDOWN' ? markdown.render(body) : `<p>${escape(body).replace(/\r?\n/g, '<br>')}</p>`;
  return sanitizeHtml(html, ALLOWED);
}

/** Rendered HTML kept, in characters: rendering costs ~20 ms for a long Markdown note, reading it again nothing. */
const CACHE_CHARS = 16_000_000;
const rendered = new LRUCache<string, string>({ maxSize: CACHE_CHARS, sizeCalculation: (html) => Math.max(1, html.length) });

/**
 * noteHtml for a stored note, rendered once per version of the note: keyed
 * by its id and when it last changed, so an edit renders anew.
 */
export function storedNoteHtml(note: { id: string; updatedAt: Date; body: string; format: 'PLAIN' | 'MARKDOWN' }): string {
  const key = `${note.id}:${note.updatedAt.getTime()}:${note.format}`;
  let html = rendered.get(key);
  if (html === undefined) rendered.set(key, (html = noteHtml(note.body, note.format)));
  return html;
}
