// What the words around a risk phrase say about it: whether someone is
// accused of it, cleared of it, denies it, is only said not to be involved,
// or is merely talked about fighting it; and whether the subject appears in
// the sentence as the accused or as a victim, witness or accuser.

const W = String.raw`(?:[\w'-]+ )`;

/** Legal or investigative action, or a crime told as a deed ("laundered", "bribed"): the phrase is an allegation, not a topic. */
export const ALLEGATION = new RegExp(String.raw`\b(?:charg(?:ed|es|ing)|indict(?:ed|ment|ments)|convict(?:ed|ion|ions)|sentenc(?:ed|ing)|jailed|imprison(?:ed|ment)|prison|guilty|arrest(?:ed|s)?|detained|custody|accus(?:ed|ations?|es|ing)|alleg(?:ed|edly|ations?|es|ing)|suspect(?:ed|s)?|investigat(?:e|ed|es|ing|ion|ions|ors)|prob(?:e|es|ed|ing)|raid(?:ed|s)?|prosecut(?:e|ed|es|ion|ors?)|extradit(?:e|ed|ion)|wanted|fugitive|fined|sued|lawsuit|admitted|confessed|pleaded|pleads|trial|seized|froze|frozen|implicated|involved in|linked to|tied to|ring-?leader|mastermind(?:ed)?|orchestrat(?:ed|ing)|police|authorities said|launder(?:s|ed)|brib(?:es|ed)|defraud(?:s|ed)|embezzl(?:es|ed)|smuggl(?:es|ed)|traffick(?:s|ed)|extort(?:s|ed)|evad(?:es|ed)|forged|stole|stolen|fraudulently)\b`, 'i');

/** The accused was cleared: acquittal, dropped charges, quashed conviction. */
export const EXONERATION = new RegExp(String.raw`\b(?:acquit(?:s|ted|tal|ting)?|exonerat(?:e|es|ed|ion|ing)|found not guilty|not guilty verdict|no case to answer|clear(?:s|ed|ing)? ${W}{0,3}?of|(?:charges?|case|indictment|prosecution|investigation|probe|lawsuit)(?: against ${W}{0,3}?)? ?(?:was |were |has been |have been |had been )?(?:dropped|dismissed|withdrawn|abandoned|discontinued|closed)|(?:dropped|dismissed|withdrew|abandoned|quashed) (?:all |the )?${W}?(?:charges|case|indictment|conviction)|conviction (?:was |has been |had been )?(?:overturned|quashed|vacated)|(?:overturned|quashed|vacated) (?:his|her|their|its|the) conviction)\b`, 'i');

/** Hoping to be cleared is a denial, not an acquittal ("expects to be cleared", "will be vindicated"). */
export const HOPED_EXONERATION = /\b(?:will|would|could|shall|expects? to|hopes? to|confident (?:\w+ )?(?:will|would)|seek(?:s|ing)? to|aims? to) (?:be )?(?:fully )?(?:acquitted|cleared|exonerated|vindicated)\b/i;

/** The accused denies it: still an allegation, a little weaker. */
export const DENIAL = new RegExp(String.raw`\b(?:den(?:y|ies|ied|ying) ${W}{0,2}(?:wrongdoing|allegations?|charges|claims|accusations|involvement|knowledge)|(?:rejects?|rejected|disputes?|disputed|refutes?|refuted) ${W}{0,2}(?:allegations?|claims|accusations|charges)|plead(?:s|ed)? not guilty|maintain(?:s|ed)? ${W}{0,2}innocence|protest(?:s|ed)? ${W}{0,2}innocence)\b`, 'i');

/** Said not to be involved (in this sentence). */
export const NEGATION = new RegExp(String.raw`\b(?:(?:is|was|were|are|has|have|had)(?: not|n't)(?: been)? (?:accused|charged|suspected|implicated|alleged|investigated|a suspect|under investigation|the subject of|involved)|not (?:a suspect|accused of|alleged to|implicated|involved)|no (?:evidence|suggestion|allegations?|indication|charges|wrongdoing|finding)s? (?:of|that|against|has|have|was|were)|never (?:been )?(?:charged|accused|convicted))\b`, 'i');

/** Ends of text just before a risk phrase that make it a topic: fighting, preventing, warning about it. */
export const GENERIC_BEFORE = new RegExp(String.raw`\b(?:fight(?:s|ing)?|combat(?:s|ing|ting)?|tackl(?:e|es|ing)|prevent(?:s|ing|ion of)?|detect(?:s|ing|ion of)?|stop(?:s|ping)?|crack(?:ing)? down on|crackdown on|against|protect(?:s|ing)? ${W}{0,3}(?:from|against)|warn(?:s|ed|ing)? ${W}{0,3}(?:about|of|against)|awareness (?:of|about)|spot(?:ting)?|beware of|risks? of|guard(?:ing)? against|reduc(?:e|es|ing)|counter(?:ing)?|education about|vulnerable to)\s+${W}{0,3}$`, 'i');

// The subject's part when it is not the accused. Checked on the text just
// before and just after each mention of the subject.
const ROLE_NOUN = String.raw`(?:victims?|witness(?:es)?|whistle-?blowers?|informants?|complainants?|targets?)`;
const ROLE_AFTER: RegExp[] = [
  // "Priya Raman, a prosecution witness," / "Raman, one of the victims,"
  new RegExp(String.raw`^,\s*(?:who (?:was|is) )?(?:an?|the|one of the|another)\s+${W}{0,2}${ROLE_NOUN}\b`, 'i'),
  // "Raman was among the victims" / "Raman, who fell victim to"
  new RegExp(String.raw`^,?\s*(?:who\s+)?(?:was|were|is|had been|has been|became|fell|appeared as|was called as|testified as)\s+${W}{0,3}?${ROLE_NOUN}\b`, 'i'),
  // "Raman testified", "Raman, who alerted the police"
  new RegExp(String.raw`^(?:,\s*who\b[^.;]{0,60}?|,?\s*${W}{0,2}?)(?:testified|gave evidence|took the stand|blew the whistle|alerted (?:the )?(?:police|authorities|regulators)|reported the (?:fraud|scheme|scam|theft))\b`, 'i'),
  // "Raman was defrauded", "Raman had been hacked"
  new RegExp(String.raw`^,?\s*(?:who\s+)?(?:was|were|had been|has been|is)\s+(?:\w+\s+)?(?:hacked|defrauded|scammed|duped|swindled|cheated|extorted|blackmailed|robbed|impersonated|targeted by (?:fraudsters|scammers|hackers|criminals))\b`, 'i'),
  // The accuser: "Raman accused her partner of fraud", "Raman sued" (not "Raman was accused of")
  new RegExp(String.raw`^,?\s*(?:who\s+)?(?:has |had |later |first )?(?:accused|sued|alleged that|claims that|claimed that)\b(?!\s+of\b)`, 'i'),
];
const ROLE_BEFORE: RegExp[] = [
  // "prosecution witness Priya Raman", "victims including Priya Raman"
  new RegExp(String.raw`\b${ROLE_NOUN}(?:\s+(?:including|included|include|includes|such as|like|named|was|were|is|are|as))?[\s,:]*$`, 'i'),
  // "defrauded businesswoman Priya Raman", "hackers targeted Raman"
  new RegExp(String.raw`\b(?:defrauded|scammed|duped|swindled|cheated|hacked|extorted|blackmailed|robbed|targeted|impersonated|impersonating|threatened)\s+${W}{0,2}$`, 'i'),
  // "testimony from Priya Raman", "complaint by Raman"
  new RegExp(String.raw`\b(?:testimony|evidence|statement|complaint|tip-?off)\s+(?:of|from|by)\s+$`, 'i'),
];

/** Whether the subject, mentioned at text[start, end), is there as a victim, witness, whistleblower or accuser. */
export function bystanderRole(text: string, start: number, end: number): boolean {
  const before = text.slice(Math.max(0, start - 60), start);
  const after = text.slice(end, end + 80);
  return ROLE_AFTER.some((p) => p.test(after)) || ROLE_BEFORE.some((p) => p.test(before));
}

// The subject as the one speaking about a topic ("Feldman, a partner at
// Feldman & Roe, said ...", "according to Bellhaven"), not as its actor.
const SPEAKER_AFTER = new RegExp(String.raw`^(?:['’]s\s+(?:lawyer|spokes(?:man|woman|person)|chief executive|founder|partner|director))?(?:,[^,.;]{0,60},)?\s*${W}{0,2}?(?:said|says|told|warned|explained|added|noted|argued|commented|wrote|urged|cautioned)\b`, 'i');
const SPEAKER_BEFORE = /\baccording to\s+(?:[\w'-]+\s+){0,3}$/i;

/** Whether the subject, mentioned at text[start, end), is speaking rather than acting. */
export function speakerRole(text: string, start: number, end: number): boolean {
  return SPEAKER_AFTER.test(text.slice(end, end + 80)) || SPEAKER_BEFORE.test(text.slice(Math.max(0, start - 40), start));
}
