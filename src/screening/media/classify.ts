import { splitSentences, type Sentence } from './article-text.ts';
import { ALLEGATION, bystanderRole, DENIAL, EXONERATION, GENERIC_BEFORE, HOPED_EXONERATION, NEGATION, speakerRole } from './context-cues.ts';
import { NEUTRAL_COMPOUNDS, RISK_TERMS, type RiskCategory } from './risk-lexicon.ts';
import type { SubjectReference } from './subject-matcher.ts';

// Which risk categories an article puts its subject in, sentence by sentence:
// each risk phrase counts by its own strength, by whether the sentence is an
// allegation (charged, convicted, accused ...), and by how close it is to a
// mention of the subject, in which the subject must not be a victim, witness
// or accuser (nor merely quoted). Phrases that are topics ("the fight against
// fraud"), negated or acquitted count little. Acquittals and dropped charges
// lower the category (or, "cleared of all charges", the article), denials a
// little; a category carried by no sentence about the subject is halved.
// Sentences combine as independent evidence (noisy-or).

/** Changes whenever the lexicon or the weights change, so that stored findings say how they were classified. */
export const MEDIA_CLASSIFIER_VERSION = 'media-risk-1.0';

/** Categories below this confidence are not reported. */
export const MIN_CATEGORY_CONFIDENCE = 0.3;

export interface RiskAssessment {
  category: RiskCategory;
  /** 0..1 */
  confidence: number;
  /** The sentences that weighed most, best first (at most three). */
  evidence: string[];
  /** The risk phrases found, as written. */
  phrases: string[];
}

// Factors on a phrase's strength (see the header).
const NOT_ALLEGED = 0.55;
const GENERIC_TOPIC = 0.3;
const EXONERATED_SENTENCE = 0.15;
const NEGATED_SENTENCE = 0.2;
const DENIED = 0.75;
// The subject only quoted on a topic, in a sentence that accuses nobody.
const SPEAKER = 0.5;
// Factors on a whole category.
const EXONERATED_ARTICLE = 0.3;
const DENIED_ARTICLE = 0.85;
// A category that no sentence about the subject carries is most likely someone else's.
const UNATTACHED = 0.5;
// A sentence after a mention that goes on about the subject.
const PRONOUN_START = /^(?:["“]?)(?:He|She|They|It|His|Her|Its|Their|The (?:company|firm|bank|group|businessman|businesswoman|executive|tycoon|politician|official|minister|lender|shipping company|trader|broker|fund|founder|defendant))\b/;

interface SentenceContext extends Sentence {
  /** How much a phrase in this sentence concerns the subject (0..1). */
  proximity: number;
  /** The sentence names the subject as its actor, or goes on about them ("He was charged"). */
  aboutSubject: boolean;
  /** The subject is quoted in this sentence ("Feldman said ..."). */
  speaker: boolean;
}

function sentenceContexts(text: string, references: SubjectReference[]): SentenceContext[] {
  const sentences = splitSentences(text);
  const roles = sentences.map((s) => {
    const inside = references.filter((r) => r.start >= s.start && r.start < s.end);
    const direct = inside.filter((r) => !bystanderRole(text, r.start, r.end));
    return { any: inside.length > 0, direct: direct.length > 0, full: direct.some((r) => r.full), speaker: direct.some((r) => speakerRole(text, r.start, r.end)) };
  });
  const directAt = roles.flatMap((r, i) => (r.direct ? [i] : []));
  return sentences.map((sentence, i) => {
    const role = roles[i]!;
    const at = (proximity: number, aboutSubject: boolean) => ({ ...sentence, proximity, aboutSubject, speaker: role.speaker });
    if (!references.length) return at(1, true);
    if (role.direct) return at(role.full ? 1 : 0.85, true);
    if (role.any) return at(0.2, false);
    if (!directAt.length) return at(0.15, false);
    const distance = Math.min(...directAt.map((j) => Math.abs(j - i)));
    const continues = distance === 1 && directAt.includes(i - 1) && PRONOUN_START.test(sentence.text);
    return at(continues ? 0.85 : distance === 1 ? 0.6 : distance === 2 ? 0.4 : 0.25, continues);
  });
}

/** The text with ordinary-language compounds ("fraud prevention software") blanked, offsets kept. */
function neutralized(text: string): string {
  let masked = text;
  for (const pattern of NEUTRAL_COMPOUNDS) masked = masked.replace(pattern, (m) => ' '.repeat(m.length));
  return masked;
}

function snippet(sentence: string, phraseAt: number, phraseLength: number): string {
  if (sentence.length <= 300) return sentence;
  const from = Math.max(0, phraseAt - 120);
  const to = Math.min(sentence.length, phraseAt + phraseLength + 120);
  return `${from > 0 ? '…' : ''}${sentence.slice(from, to).trim()}${to < sentence.length ? '…' : ''}`;
}

interface SentenceHit {
  weight: number;
  aboutSubject: boolean;
  evidence: string;
  phrases: string[];
}

/**
 * Risk categories of an article's text, given where it refers to the subject
 * (SubjectMatcher.references). With no references, every sentence is taken
 * to be about the subject.
 */
export function classifyRisk(text: string, references: SubjectReference[] = [], options: { minConfidence?: number } = {}): RiskAssessment[] {
  const minConfidence = options.minConfidence ?? MIN_CATEGORY_CONFIDENCE;
  const masked = neutralized(text);
  const contexts = sentenceContexts(text, references);
  const hits = new Map<RiskCategory, SentenceHit[]>();
  const articleFactor = new Map<RiskCategory | 'ALL', number>();
  const lower = (key: RiskCategory | 'ALL', factor: number) => articleFactor.set(key, Math.min(articleFactor.get(key) ?? 1, factor));

  for (const context of contexts) {
    const alleged = ALLEGATION.test(context.text);
    const hoped = HOPED_EXONERATION.test(context.text);
    const exonerated = !hoped && EXONERATION.test(context.text);
    const negated = NEGATION.test(context.text);
    const denied = hoped || DENIAL.test(context.text);
    const found = new Map<RiskCategory, SentenceHit>();
    for (const term of RISK_TERMS) {
      const scope = (term.raw ? text : masked).slice(context.start, context.end);
      for (const match of scope.matchAll(term.pattern)) {
        let weight = term.strength * context.proximity * (alleged ? 1 : NOT_ALLEGED);
        if (!alleged && context.speaker) weight *= SPEAKER;
        if (!alleged && GENERIC_BEFORE.test(scope.slice(Math.max(0, match.index! - 60), match.index!))) weight *= GENERIC_TOPIC;
        if (exonerated) weight *= EXONERATED_SENTENCE;
        else if (negated) weight *= NEGATED_SENTENCE;
        else if (denied) weight *= DENIED;
        // Quoting the subject on a topic does not attach the topic to them.
        const hit = found.get(term.category) ?? { weight: 0, aboutSubject: context.aboutSubject && !(context.speaker && !alleged), evidence: '', phrases: [] };
        if (!hit.phrases.includes(match[0])) hit.phrases.push(match[0]);
        if (weight > hit.weight) Object.assign(hit, { weight, evidence: snippet(context.text, match.index!, match[0].length) });
        found.set(term.category, hit);
      }
    }
    for (const [category, hit] of found) hits.set(category, [...(hits.get(category) ?? []), hit]);
    // An acquittal of the subject lowers what it names (or everything, for "cleared of all charges").
    if (context.aboutSubject && exonerated) {
      if (found.size) for (const category of found.keys()) lower(category, EXONERATED_ARTICLE);
      else lower('ALL', EXONERATED_ARTICLE);
    } else if (context.aboutSubject && denied) {
      lower('ALL', DENIED_ARTICLE);
    }
  }

  const assessments: RiskAssessment[] = [];
  for (const [category, sentenceHits] of hits) {
    const combined = 1 - sentenceHits.reduce((rest, hit) => rest * (1 - hit.weight), 1);
    const attached = sentenceHits.some((hit) => hit.aboutSubject) ? 1 : UNATTACHED;
    const confidence = Math.round(combined * attached * (articleFactor.get(category) ?? 1) * (articleFactor.get('ALL') ?? 1) * 1000) / 1000;
    if (confidence < minConfidence) continue;
    const ranked = [...sentenceHits].sort((a, b) => b.weight - a.weight);
    assessments.push({
      category, confidence,
      evidence: [...new Set(ranked.map((h) => h.evidence))].slice(0, 3),
      phrases: [...new Set(ranked.flatMap((h) => h.phrases))],
    });
  }
  return assessments.sort((a, b) => b.confidence - a.confidence || a.category.localeCompare(b.category));
}
