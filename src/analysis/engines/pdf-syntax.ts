/**
 * PDF's object syntax (numbers, strings, names, arrays, dictionaries,
 * references, keywords), read as pdf.js's Lexer and Parser read it, so that a
 * stream's dictionary is the one pdf.js sees: names with #xx escapes decoded,
 * strings and comments skipped whatever they hold (a `(stream)` inside a
 * dictionary is a string), keys taken from key positions only, the last of
 * duplicate keys kept, a key that is not a name skipped. pdf-lib's parser was
 * considered: it decodes only upper-case #XX (pdf.js both), throws where
 * pdf.js skips a malformed key, and keeps every name it meets in a global pool.
 */

export class PdfName {
  constructor(readonly name: string) {}
}

/** An indirect reference `n g R`, as its key "n g". */
export class PdfRef {
  constructor(readonly key: string) {}
}

/** A bare word: true, false, null, R, obj, stream, endstream, endobj, or any other. */
class Keyword {
  constructor(readonly word: string) {}
}

/** What a string holds is of no use here: only that it is one. */
class PdfString {}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | PdfName | PdfRef | PdfString | PdfValue[] | PdfDict;

type Token = number | PdfName | PdfString | Keyword | '<<' | '>>' | '[' | ']' | '{' | '}' | typeof EOF;
const EOF = Symbol('EOF');

/** PDF whitespace (1) and delimiters (2), as pdf.js's specialChars. */
const SPECIAL = new Uint8Array(256);
for (const code of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) SPECIAL[code] = 1;
for (const char of '()<>[]{}/%') SPECIAL[char.charCodeAt(0)] = 2;

const LINE_END = /[\r\n]/g;

/** Nesting beyond this is not a dictionary any reader takes (pdf.js's own recursion fails well before). */
const MAX_DEPTH = 500;

class PdfSyntaxError extends Error {}

/** Tokens of `text` (a file read as latin1) from a position on. */
class Lexer {
  constructor(
    private readonly text: string,
    public pos: number,
  ) {}

  next(): Token {
    const text = this.text;
    let code = this.#skipSpace();
    if (code < 0) return EOF;
    const char = text[this.pos]!;
    switch (char) {
      case '(':
        this.#skipString();
        return new PdfString();
      case '/':
        return this.#name();
      case '[':
      case ']':
      case '{':
      case '}':
        this.pos++;
        return char;
      case '<':
        if (text[this.pos + 1] === '<') {
          this.pos += 2;
          return '<<';
        }
        this.pos = text.indexOf('>', this.pos);
        this.pos = this.pos < 0 ? text.length : this.pos + 1;
        return new PdfString();
      case '>':
        if (text[this.pos + 1] !== '>') return new Keyword(text[this.pos++]!);
        this.pos += 2;
        return '>>';
      case ')':
        this.pos++;
        return new Keyword(')');
    }
    const start = this.pos;
    while (this.pos < text.length && !SPECIAL[(code = text.charCodeAt(this.pos))]) this.pos++;
    const word = text.slice(start, this.pos);
    if (/^[+-]*(\d+\.?\d*|\.\d+)$/.test(word)) return Number(word.replace(/^[+-]*/, (signs) => (signs.includes('-') ? '-' : '')));
    return new Keyword(word);
  }

  /** Skips whitespace and comments; the next character's code, or -1 at the end. */
  #skipSpace(): number {
    const text = this.text;
    while (this.pos < text.length) {
      const code = text.charCodeAt(this.pos);
      if (code === 0x25) {
        LINE_END.lastIndex = this.pos;
        this.pos = LINE_END.exec(text)?.index ?? text.length;
      } else if (SPECIAL[code] === 1) this.pos++;
      else return code;
    }
    return -1;
  }

  /** A literal string: nested parentheses balanced, a backslash escaping the next character. */
  #skipString() {
    const text = this.text;
    let depth = 0;
    for (; this.pos < text.length; this.pos++) {
      const char = text[this.pos];
      if (char === '\\') this.pos++;
      else if (char === '(') depth++;
      else if (char === ')' && --depth === 0) {
        this.pos++;
        return;
      }
    }
  }

  /** A name, its #xx escapes decoded (either case), as pdf.js's getName. */
  #name(): PdfName {
    const text = this.text;
    const start = ++this.pos;
    while (this.pos < text.length && !SPECIAL[text.charCodeAt(this.pos)]) this.pos++;
    return new PdfName(text.slice(start, this.pos).replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  }
}

/** Where a stream's keyword ends, its dictionary, and (from the caller) where its data ends: the parser resumes there. */
export type OnStream = (dictionary: PdfDict, keywordEnd: number) => number;

/**
 * Reads the object that starts at `pos` (after its `n g obj`), as pdf.js's
 * Parser.getObj: a dictionary followed by `stream` is a stream, handed to
 * `onStream` (whatever depth it is found at, as pdf.js makes it a stream there
 * too). Returns the object and where reading ended.
 */
export function readObject(text: string, pos: number, onStream: OnStream): { value: PdfValue; end: number } {
  const parser = new Parser(new Lexer(text, pos), onStream);
  try {
    return { value: parser.object(0), end: parser.lexer.pos };
  } catch (error) {
    // Not an object pdf.js could read either (it fails on it too).
    if (error instanceof PdfSyntaxError) return { value: null, end: parser.lexer.pos };
    throw error;
  }
}

class Parser {
  #buf1: Token;
  #buf2: Token;

  constructor(
    readonly lexer: Lexer,
    private readonly onStream: OnStream,
  ) {
    this.#buf1 = lexer.next();
    this.#buf2 = lexer.next();
  }

  #shift() {
    this.#buf1 = this.#buf2;
    this.#buf2 = this.lexer.next();
  }

  object(depth: number): PdfValue {
    if (depth > MAX_DEPTH) throw new PdfSyntaxError('nested too deep');
    const token = this.#buf1;
    this.#shift();
    if (token === EOF) throw new PdfSyntaxError('end of file');
    if (token === '[') {
      const array: PdfValue[] = [];
      while (this.#buf1 !== ']' && this.#buf1 !== EOF) array.push(this.object(depth + 1));
      this.#shift();
      return array;
    }
    if (token === '<<') return this.#dictionary(depth);
    if (typeof token === 'number') {
      // `n g R`: two integers and R (pdf.js looks two tokens ahead).
      const buf2 = this.#buf2;
      if (Number.isInteger(token) && Number.isInteger(this.#buf1) && buf2 instanceof Keyword && buf2.word === 'R') {
        const reference = new PdfRef(`${token} ${this.#buf1 as number}`);
        this.#shift();
        this.#shift();
        return reference;
      }
      return token;
    }
    if (token instanceof Keyword) return token.word === 'true' ? true : token.word === 'false' ? false : null;
    if (typeof token === 'string') return null; // a stray ], >>, { or }
    return token;
  }

  #dictionary(depth: number): PdfDict {
    const dictionary: PdfDict = new Map();
    while (this.#buf1 !== '>>' && this.#buf1 !== EOF) {
      const key = this.#buf1;
      this.#shift();
      if (!(key instanceof PdfName)) continue; // pdf.js: "key must be a name object", skipped
      if (this.#buf1 === EOF) break;
      dictionary.set(key.name, this.object(depth + 1));
    }
    if (this.#buf1 === EOF) throw new PdfSyntaxError('end of file inside a dictionary');
    const next = this.#buf2;
    if (next instanceof Keyword && next.word === 'stream') {
      // The keyword has just been read: the lexer stands right after it.
      this.lexer.pos = this.onStream(dictionary, this.lexer.pos);
      this.#buf1 = this.lexer.next();
      this.#buf2 = this.lexer.next();
      if (this.#buf1 instanceof Keyword && this.#buf1.word === 'endstream') this.#shift();
      return dictionary;
    }
    this.#shift();
    return dictionary;
  }
}
