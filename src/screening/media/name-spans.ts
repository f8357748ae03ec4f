// Where a name can be in running text: runs of capitalised words ("Mohammed
// Tariq Haddad", "Norvane Shipping Ltd"), joined by name particles and
// connectors ("bin", "al", "van", "de", "of", "&"), not across punctuation.
// Each run yields every window of up to maxWords words that starts and ends
// on a capitalised word, so that "Businessman John Smith Charged" offers
// "John Smith" to the matcher.

export interface TextSpan {
  text: string;
  start: number;
  end: number;
}

interface Word extends TextSpan {
  nameLike: boolean;
  connector: boolean;
}

const CONNECTORS = new Set([
  'al', 'el', 'ul', 'bin', 'ibn', 'bint', 'binti', 'ben', 'van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'la', 'le', 'dos', 'das',
  'y', 'of', 'and', 'for', 'the', '&',
]);
// A full stop after these continues the name ("Dr. Ayman", "J. Smith").
const DOTTED = new Set(['mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'gen', 'col', 'lt', 'capt', 'sgt', 'rev', 'hon', 'co', 'inc', 'ltd', 'corp']);

const WORD = /[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*|&/gu;

function words(text: string): Word[] {
  const found: Word[] = [];
  for (const match of text.matchAll(WORD)) {
    let value = match[0];
    // "Haddad's" is Haddad.
    if (/['’]s$/i.test(value)) value = value.slice(0, -2);
    const start = match.index!;
    found.push({
      text: value, start, end: start + value.length,
      // Capitalised anywhere ("al-Rashid", "McDonald") or in a script without case.
      nameLike: /\p{Lu}/u.test(value) || /^\p{Lo}/u.test(value),
      connector: CONNECTORS.has(value.toLowerCase()) && !/\p{Lu}/u.test(value[0]!),
    });
  }
  return found;
}

/** The words of text that can be part of a name, as written. */
export function nameLikeWords(text: string): string[] {
  return words(text).filter((w) => w.nameLike).map((w) => w.text);
}

/** Whether two neighbouring words can belong to one name: only spaces between them, or the full stop of an initial or a title. */
function joined(text: string, left: Word, right: Word): boolean {
  const gap = text.slice(left.end, right.start);
  if (/^[ \t\u00a0]+$/.test(gap)) return true;
  return /^\.[ \t\u00a0]+$/.test(gap) && (left.text.length === 1 || DOTTED.has(left.text.toLowerCase()));
}

export function candidateSpans(text: string, maxWords: number): TextSpan[] {
  const all = words(text);
  const spans: TextSpan[] = [];
  let run: Word[] = [];
  const flush = () => {
    // Trailing connectors belong to no name.
    while (run.length && !run.at(-1)!.nameLike) run.pop();
    for (let i = 0; i < run.length; i++) {
      if (!run[i]!.nameLike) continue;
      for (let j = i; j < run.length && j - i < maxWords; j++) {
        if (run[j]!.nameLike) spans.push({ text: text.slice(run[i]!.start, run[j]!.end), start: run[i]!.start, end: run[j]!.end });
      }
    }
    run = [];
  };
  for (const word of all) {
    const previous = run.at(-1);
    if (previous && !joined(text, previous, word)) flush();
    if (word.nameLike || (word.connector && run.length)) run.push(word);
    else flush();
  }
  flush();
  return spans;
}
