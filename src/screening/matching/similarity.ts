import jaroWinkler from 'talisman/metrics/jaro-winkler.js';
import { SERVANT } from './arabic-names.ts';
import { differentGivenNames } from './given-names.ts';
import { spelling } from './phonetic.ts';

/** One token of a name, with what matching needs precomputed. */
export interface Token {
  text: string;
  key: string;
  /** 0.5 (very common token) .. 1.5 (rare): rare tokens decide a match. */
  weight: number;
  /** spelling(text), when already known. */
  spelling?: string;
  /** vowelFrame(text), when already known. */
  frame?: string;
  /** A title or legal form: counts when paired, is not missed when not. */
  optional?: boolean;
  /** A query word written in Arabic script: its consonant skeleton (arabic-script.ts). */
  skeleton?: string;
}

/** Pairs below this similarity are not pairs: the tokens count as unmatched. */
export const MIN_PAIR = 0.75;
/** An initial against a name it starts: agreement, but of a single letter. */
export const INITIAL = 0.9;
/** A shared consonant key (Mohammed / Muhammad) lifts the spelling similarity by this much, up to KEY_FLOOR. */
const KEY_BONUS = 0.08;
const KEY_FLOOR = 0.93;
/** Spellings of five letters or more differing only in vowels, three consonants or more (Hezbollah / Hizballah): the commonest variation between transliterations. */
const VOWELS_ONLY = 0.92;
/** A name and the same name with the Arabic article run onto it (Alharamain / Haramain, Elzeydi / Zeydi). */
const ARTICLE_JOINED = 0.95;
/** Tokens of four letters or fewer one consonant apart are different names more often than typos (Lea / Leal, Kim / Kin). */
const SHORT_CONSONANT_EDIT = 0.8;
/**
 * Unrelated pairs reach MIN_PAIR only from an average of 0.85 between
 * Jaro-Winkler and edit similarity (0.85 - 2 × 0.05 = 0.75), so their edit
 * similarity is at least 0.7: lengths differ by at most 30%.
 */
const UNRELATED_LENGTH_GAP = 0.3;

/** Whether one substitution, insertion, deletion or swap of neighbours turns a into b. */
export function withinOneEdit(a: string, b: string): boolean {
  const gap = a.length - b.length;
  if (gap > 1 || gap < -1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (gap === 0) {
    if (sameFrom(a, i + 1, b, i + 1)) return true;
    return a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2);
  }
  return gap > 0 ? sameFrom(a, i + 1, b, i) : sameFrom(a, i, b, i + 1);
}

/** a from index i equals b from index j. */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (; i < a.length; i++, j++) if (a.charCodeAt(i) !== b.charCodeAt(j)) return false;
  return true;
}

let rows = new Int32Array(3 * 32);

/** Optimal string alignment distance (edits, swaps of neighbours counting one), with rows reused between calls. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  if (rows.length < 3 * width) rows = new Int32Array(6 * width);
  // Three rows: two back (for swaps), previous, current.
  let before = 0;
  let previous = width;
  let current = 2 * width;
  for (let j = 0; j < width; j++) rows[previous + j] = j;
  for (let i = 1; i <= a.length; i++) {
    rows[current] = i;
    for (let j = 1; j < width; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(rows[previous + j]! + 1, rows[current + j - 1]! + 1, rows[previous + j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) value = Math.min(value, rows[before + j - 2]! + 1);
      rows[current + j] = value;
    }
    [before, previous, current] = [previous, current, before];
  }
  return rows[previous + b.length]!;
}

/**
 * Similarity of two tokens in 0..1. Related spellings keep the best of:
 * Jaro-Winkler on the spellings and on the romanisation-neutral spellings
 * (Dzhamal / Jamal), lifted a little (up to 0.93) for a shared consonant key
 * (Mohammed / Muhammad, Husain / Hossein); related means one of those, or
 * one edit apart (a typo; Osama / Usama once spelled alike).
 * Unrelated spellings are scored lower: Jaro-Winkler overrates a shared
 * start (Anders / Andersson, Rossi / Rossiya), so it is averaged with an
 * edit-distance similarity, and under 0.9 discounted steeply (loose
 * agreement between names is mostly chance). Spellings differing in vowels
 * only are related (at least 0.92); tokens of four letters or fewer one
 * consonant apart are not strongly (at most 0.8); two different given names
 * are not related at all. An initial against a name it starts: 0.9.
 */
export function tokenSimilarity(a: Token, b: Token): number {
  const similarity = spellingSimilarity(a, b);
  // Different given names are not paired whatever their spelling (Mary / Mark), nor other different words that look alike.
  return similarity >= MIN_PAIR && similarity < 1 && (differentGivenNames(a.text, b.text) || differentWords(a, b)) ? similarity / 2 : similarity;
}

/** A patronymic's ending after the v of the name it is made from (Dmitriev-ich, Ivanov-na, Petrov-ych). */
const PATRONYMIC_ENDING = /^(?:i?t?ch|ych|na|ic)$/;
/** First consonants romanizations put for one sound (Qasim / Kasim, Khalid / Halid, Yusuf / Jusuf, Vali / Wali, Dhawahiri / Zawahiri, Thamir / Samir). */
const FIRST_CONSONANTS = ['kqcgh', 'jygzd', 'vwfb', 'szct', 'td'];

/**
 * Words alike in letters that are different names: a surname and the
 * patronymic made from it (Dmitriev / Dmitrievich), names differing in
 * their first consonant (Jamal / Kamal: romanizations and typos keep it).
 */
function differentWords(a: Token, b: Token): boolean {
  const [shorter, longer] = a.text.length <= b.text.length ? [a.text, b.text] : [b.text, a.text];
  if (/[oe]v$/.test(shorter)) {
    const at = longer.lastIndexOf('v');
    if (at > 2 && PATRONYMIC_ENDING.test(longer.slice(at + 1)) && withinOneEdit(longer.slice(0, at + 1), shorter)) return true;
  }
  const [p, q] = [a.text[0]!, b.text[0]!];
  return p !== q && !'aeiou'.includes(p) && !'aeiou'.includes(q) && (a.spelling ?? spelling(a.text))[0] !== (b.spelling ?? spelling(b.text))[0] && !FIRST_CONSONANTS.some((set) => set.includes(p) && set.includes(q));
}



function spellingSimilarity(a: Token, b: Token): number {
  if (a.text === b.text) return 1;
  if (a.text.length === 1 || b.text.length === 1) return a.text[0] === b.text[0] ? INITIAL : 0;
  // Abd pairs with Abd (and its initial) only (not Abu, Abid): it stands for a word, not a spelling.
  if (a.text === SERVANT || b.text === SERVANT) return 0;
  const spelledA = a.spelling ?? spelling(a.text);
  const spelledB = b.spelling ?? spelling(b.text);
  if (spelledA === spelledB) return Math.max(jaroWinkler(a.text, b.text), 0.95);
  const frameA = a.frame ?? vowelFrame(a.text, spelledA);
  if (frameA && frameA === (b.frame ?? vowelFrame(b.text, spelledB))) return Math.max(jaroWinkler(a.text, b.text), VOWELS_ONLY);
  if (articleJoined(a.text, b.text) || articleJoined(b.text, a.text)) return ARTICLE_JOINED;
  // One edit in the text is a typo; in the spellings, only a letter for a letter in names of five letters or more (Osama / Usamah, not Ali / Mali or Saleh / Sally).
  const oneEdit = withinOneEdit(a.text, b.text) || (spelledA.length === spelledB.length && spelledA.length >= 5 && withinOneEdit(spelledA, spelledB));
  // Keys of one or two consonants say too little (Giulia / Ghul) to lift a score; nor do keys shared by distant spellings (Brennan / Bourne).
  const sameKey = a.key === b.key && a.key.length - Number(a.key[0] === '*') >= 3;
  const longer = Math.max(a.text.length, b.text.length);
  // Unrelated tokens whose lengths differ by more than this share cannot reach MIN_PAIR (see below): not worth comparing.
  if (!oneEdit && !sameKey && Math.abs(a.text.length - b.text.length) > UNRELATED_LENGTH_GAP * longer) return 0;
  const direct = jaroWinkler(a.text, b.text);
  const best = Math.max(direct, jaroWinkler(spelledA, spelledB) * 0.97);
  // Not when short names sound vowels in more places, an ending aside, and are not close (Mahmoud(i) / Mohammad: m_hm_d, m_h_m_d): two names with the same consonants.
  const frameB = b.frame ?? vowelFrame(b.text, spelledB);
  if (sameKey && direct >= MIN_PAIR && !(direct < 0.9 && a.key.length <= 4 && frameA && frameB && countMarks(frameA.replace(/_$/, '')) !== countMarks(frameB.replace(/_$/, '')))) return Math.max(best, Math.min(KEY_FLOOR, best + KEY_BONUS));
  if (oneEdit) return Math.min(a.text.length, b.text.length) <= 4 ? Math.min(best, SHORT_CONSONANT_EDIT) : best;
  // Below 0.7 the average with the edit similarity stays under 0.85, whose discount falls under MIN_PAIR.
  if (best < 0.7) return best * 0.5;
  const edits = 1 - editDistance(a.text, b.text) / longer;
  const unrelated = (best + edits) / 2;
  return unrelated >= 0.9 ? unrelated : Math.max(0, unrelated - 2 * (0.9 - unrelated));
}

/**
 * The spelling with each run of vowels as one mark: the consonants and
 * where vowels sound between them. Empty for tokens under five letters or
 * with fewer than three consonants (Saleh / Sally share a frame by chance).
 */
export function vowelFrame(text: string, spelled = spelling(text)): string {
  if (text.length < 5) return '';
  const frame = spelled.replace(/[aeiou]+/g, '_');
  return frame.length - countMarks(frame) >= 3 ? frame : '';
}

function countMarks(frame: string): number {
  let marks = 0;
  for (let i = 0; i < frame.length; i++) marks += Number(frame.charCodeAt(i) === 95);
  return marks;
}

/** Whether `long` is `short` with an Arabic article run onto it (alharamain / haramain, elzeydi / zeydi). */
export function articleJoined(long: string, short: string): boolean {
  return long.length === short.length + 2 && short.length >= 3 && (long[0] === 'a' || long[0] === 'e') && long[1] === 'l' && long.endsWith(short);
}

export interface Alignment {
  score: number;
  pairs: Array<{ query: string; listed: string; similarity: number }>;
  unmatchedQuery: string[];
  unmatchedListed: string[];
}

/** Unmatched tokens count at this share of their weight when two strong pairs (or one and an initial) anchor the name: a missing or extra middle name. */
const LEFTOVER_ANCHORED = 0.5;
/** The same for words of an organization's name after the paired ones, and of a person's name held by three strong pairs or more; with fewer, a person's given name or surname one name lacks counts in full (Pedro Sanchez is not Pedro SANCHEZ MEDRANO). */
const LEFTOVER_OUTSIDE = 0.65;
/** Without a pair at least this close, a name's score loses UNANCHORED_SLOPE times the shortfall of its closest pair (0.93: 8%). */
const CLOSE = 0.97;
const UNANCHORED_SLOPE = 2;
/** Listed names in another order cost this factor, so that the listed order ranks first among equals. */
const REORDERED = 0.99;
/** Optional words pair only when spelled alike (Sheikh / Shaykh), not when merely close (Co / Ko). */
const OPTIONAL_PAIR = VOWELS_ONLY;
/** Both names carry optional words and none of them pair (Smilewallet LLC / Smilewallet B.V.): ranked after names whose legal form agrees. */
const OPTIONAL_DISAGREE = 0.98;

/**
 * Pairs tokens of the two names greedily by similarity (order does not
 * matter), then scores the weighted share of matched tokens. A pair weighs
 * the mean of its tokens' weights, or an initial's weight (a letter says
 * little); a whole query token that only a listed initial meets counts as
 * unmatched beyond that (Robert Achterberg is not confirmed by Robert A.).
 * Optional tokens (titles, legal forms) count when paired and are not
 * missed otherwise.
 * Tokens left over count in part when the name is anchored by two strong
 * pairs, or one and an initial of the query: half between paired tokens (a
 * missing middle name), a little more after them in an organization's name
 * or a person's held by three strong pairs; fully otherwise (a person's
 * given name or surname, an organization's first word). Abd agrees only
 * with the name after it. A name
 * with no token pair close to exact is discounted by how far its closest is.
 */
export function alignNames(
  query: Token[],
  listed: Token[],
  similarityOf: (i: number, j: number) => number = (i, j) => tokenSimilarity(query[i]!, listed[j]!),
  options: { organization?: boolean } = {},
): Alignment {
  const candidates: Array<{ i: number; j: number; similarity: number }> = [];
  for (let i = 0; i < query.length; i++) {
    for (let j = 0; j < listed.length; j++) {
      const similarity = similarityOf(i, j);
      if (similarity >= (query[i]!.optional || listed[j]!.optional ? OPTIONAL_PAIR : MIN_PAIR)) candidates.push({ i, j, similarity });
    }
  }
  candidates.sort((x, y) => y.similarity - x.similarity || x.i - y.i || x.j - y.j);
  const pairedQuery = new Array<boolean>(query.length).fill(false);
  const pairedListed = new Array<boolean>(listed.length).fill(false);
  const pairs: Array<{ i: number; j: number; similarity: number }> = [];
  for (const candidate of candidates) {
    if (pairedQuery[candidate.i] || pairedListed[candidate.j]) continue;
    pairedQuery[candidate.i] = true;
    pairedListed[candidate.j] = true;
    pairs.push(candidate);
  }
  // Abd is half of a name (Abd al-Nasir): it does not agree when the listed name after it pairs with another word of the query
  // (Abdelnasser is not Nasser Abdallah, Abdur Rahman is not Abd al-Hamid Rahman), nor when the query's pairs before it.
  const servant = query.some((t) => t.text === SERVANT);
  const listedOf = servant ? new Map(pairs.map((p) => [p.i, p.j])) : undefined;
  const queryOf = servant ? new Map(pairs.map((p) => [p.j, p.i])) : undefined;
  for (let k = servant ? pairs.length - 1 : -1; k >= 0; k--) {
    const { i, j } = pairs[k]!;
    if (query[i]!.text !== SERVANT || !(((queryOf!.get(j + 1) ?? i + 1) !== i + 1) || (listedOf!.get(i + 1) ?? j) < j)) continue;
    pairedQuery[i] = false;
    pairedListed[j] = false;
    pairs.splice(k, 1);
  }
  let strongPairs = 0;
  /** Initials of the query (an abbreviated given name); a listed initial against a whole query token anchors nothing. */
  let initialPairs = 0;
  let matched = 0;
  let total = 0;
  /** What of the query's whole tokens only a listed initial confirms: its first letter, the rest counts as unmatched. */
  let unconfirmed = 0;
  /** The closest pair of whole tokens, titles and legal forms aside: a name resting on resemblances only (Rahul Kang / Raul King) needs more of them. */
  let closest = 0;
  for (const pair of pairs) {
    const q = query[pair.i]!;
    const l = listed[pair.j]!;
    const initial = q.text.length === 1 || l.text.length === 1;
    if (initial) initialPairs += Number(q.text.length === 1);
    // Abd with its name is one strong pair, not two.
    else if (pair.similarity >= 0.9 && q.text !== SERVANT) strongPairs++;
    if (!initial && !q.optional && !l.optional) closest = Math.max(closest, pair.similarity);
    const weight = initial ? Math.min(q.weight, l.weight) : (q.weight + l.weight) / 2;
    matched += pair.similarity * weight * 2;
    total += weight * 2;
    if (l.text.length === 1 && q.text.length > 1) unconfirmed += q.weight - weight;
  }
  const anchored = strongPairs >= 2 || (strongPairs === 1 && initialPairs > 0);
  const leftover = anchored ? LEFTOVER_ANCHORED : 1;
  total += unconfirmed * leftover;
  // A token left over between paired ones is a middle name; before or after them, a given name or surname the other name lacks.
  // A person's given name or surname the other lacks counts in full unless three strong pairs or more vouch for the rest.
  const outside = anchored && (options.organization || strongPairs >= 3) ? LEFTOVER_OUTSIDE : 1;
  // An organization's first word is what tells it apart (Syrian Petroleum Company is not Petroleum Company): missing, it counts in full.
  const before = options.organization ? 1 : outside;
  total += unpairedWeight(query, pairedQuery, leftover, before, outside) + unpairedWeight(listed, pairedListed, leftover, before, outside);
  pairs.sort((x, y) => x.i - y.i);
  const inOrder = pairs.every((p, k) => k === 0 || p.j > pairs[k - 1]!.j);
  const unanchored = Math.max(0, 1 - UNANCHORED_SLOPE * Math.max(0, CLOSE - closest));
  const disagree = unpairedOptional(query, pairedQuery) && unpairedOptional(listed, pairedListed) && !pairs.some((p) => query[p.i]!.optional);
  const score = total ? (matched / total) * (inOrder ? 1 : REORDERED) * (disagree ? OPTIONAL_DISAGREE : 1) * unanchored : 0;
  return {
    score,
    pairs: pairs.map((p) => ({ query: query[p.i]!.text, listed: listed[p.j]!.text, similarity: Math.round(p.similarity * 1000) / 1000 })),
    unmatchedQuery: query.filter((_, i) => !pairedQuery[i] && !query[i]!.optional).map((t) => t.text),
    unmatchedListed: listed.filter((_, j) => !pairedListed[j] && !listed[j]!.optional).map((t) => t.text),
  };
}

/** The weight of a name's unpaired required tokens, at `between` between its first and last paired ones, `before` and `after` outside them. */
function unpairedWeight(tokens: Token[], paired: boolean[], between: number, before: number, after: number): number {
  const first = paired.indexOf(true);
  const last = paired.lastIndexOf(true);
  let weight = 0;
  for (let k = 0; k < tokens.length; k++) {
    if (paired[k] || tokens[k]!.optional) continue;
    weight += tokens[k]!.weight * (k > first && k < last ? between : k < first ? before : after);
  }
  return weight;
}

function unpairedOptional(tokens: Token[], paired: boolean[]): boolean {
  for (let k = 0; k < tokens.length; k++) if (tokens[k]!.optional && !paired[k]) return true;
  return false;
}

/**
 * Names written together or apart (Abdulrahman / Abdul Rahman): the tokens
 * joined and compared as one, counted only when nearly identical (a loose
 * comparison of joined names matches unrelated people by their first names).
 */
export function joinedSimilarity(query: Token[], listed: Token[]): number {
  const a = query.map((t) => (t.optional ? '' : t.text)).join('');
  const b = listed.map((t) => (t.optional ? '' : t.text)).join('');
  if (a === b) return 1;
  const similarity = jaroWinkler(a, b);
  return similarity >= 0.97 ? similarity : 0;
}
