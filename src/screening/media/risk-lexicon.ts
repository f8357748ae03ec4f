// The phrases that put an article in a risk category, with how strongly
// each one alone says so (0..1). Patterns are matched case-insensitively
// between word boundaries and spell out their inflections (launder, laundered,
// laundering, launderers). Bare, overloaded words ("fraud", "cartel") are
// weaker than explicit crimes ("wire fraud", "drug cartel").

export const RISK_CATEGORIES = [
  'FRAUD', 'MONEY_LAUNDERING', 'BRIBERY_CORRUPTION', 'SANCTIONS_EVASION', 'TERRORISM_FINANCING', 'ORGANIZED_CRIME', 'TAX_CRIMES', 'CYBERCRIME',
  'DRUG_TRAFFICKING', 'HUMAN_TRAFFICKING', 'ARMS_TRAFFICKING', 'MARKET_ABUSE', 'REGULATORY_ENFORCEMENT',
] as const;

export type RiskCategory = (typeof RISK_CATEGORIES)[number];

export interface RiskTerm {
  category: RiskCategory;
  pattern: RegExp;
  strength: number;
  /** Matched against the text before neutral compounds are blanked (the phrase is itself about compliance failures). */
  raw?: boolean;
}

const W = String.raw`(?:[\w'-]+ )`; // one word and its space
const ENFORCERS = String.raw`(?:SEC|FCA|CFTC|FINRA|FinCEN|OFAC|BaFin|ASIC|MAS|FINMA|OCC|Federal Reserve|Securities and Exchange Commission|Financial Conduct Authority|regulators?|watchdog)`;

const LEXICON: Record<RiskCategory, Array<[source: string, strength: number, raw?: 'raw']>> = {
  FRAUD: [
    [String.raw`(?:wire|bank|securities|investment|accounting|insurance|mortgage|bankruptcy|health ?care|procurement|grant|subsidy|loan|credit card|identity|corporate|mail|payment|invoice|advance[- ]fee|romance|crypto(?:currency)?) fraud`, 0.85],
    [String.raw`(?<!(?:tax|vat|benefits?|carousel|missing[- ]trader|computer|securities) )fraud(?:s)?`, 0.65],
    [String.raw`ponzi(?: schemes?)?|pyramid schemes?`, 0.85],
    [String.raw`defraud(?:s|ed|ing)?|fraudulent(?:ly)?|fraudsters?|embezzl(?:e|es|ed|ing|ement|er|ers)`, 0.85],
    [String.raw`misappropriat(?:e|es|ed|ing|ion)|false accounting|cooked the books|accounting (?:scandal|irregularities)`, 0.75],
    [String.raw`forger(?:y|ies)|forged ${W}?(?:documents?|signatures?|invoices?|contracts?|papers|records|passports?|certificates?)`, 0.75],
    [String.raw`falsif(?:y|ied|ies|ying|ication of) ${W}{0,2}(?:records|accounts|documents|invoices|books|statements|data|results)`, 0.75],
    [String.raw`scam(?:s|med|mer|mers|ming)?|swindl(?:e|ed|es|ing|er|ers)|con ?artists?|bogus (?:investments?|schemes?|companies|invoices)`, 0.7],
  ],
  MONEY_LAUNDERING: [
    [String.raw`money[- ]?launder(?:ing|ed|er|ers)?|launder(?:s|ed|ing|er|ers)?`, 0.85],
    [String.raw`laundromat|smurfing`, 0.7],
    [String.raw`proceeds of (?:crime|corruption|fraud|drug trafficking|bribery)|illicit (?:funds|money|proceeds|financial flows|cash)|dirty money`, 0.65],
    [String.raw`structuring (?:deposits|cash|transactions)`, 0.6],
    [String.raw`shell compan(?:y|ies)`, 0.35],
    [String.raw`(?:AML|anti[- ]money[- ]laundering) ${W}{0,2}(?:failures|failings|breaches|violations|lapses|deficiencies|shortcomings|weaknesses)`, 0.5, 'raw'],
  ],
  BRIBERY_CORRUPTION: [
    [String.raw`brib(?:e|es|ed|ing|ery)|kickbacks?|influence[- ]peddling`, 0.85],
    [String.raw`corrupt(?:ion|ly)?|graft`, 0.65],
    [String.raw`foreign corrupt practices act|FCPA|bribery act`, 0.7],
    [String.raw`abuse of (?:public )?(?:office|power)|state capture`, 0.6],
    [String.raw`(?:embezzl|misappropriat|siphon|divert)\w* ${W}{0,4}(?:public|state|government|municipal|ministry) (?:funds|money|budget|contracts)`, 0.8],
    [String.raw`(?:paid off|illegal payments to|payments to) ${W}{0,3}(?:officials|ministers|politicians|judges)`, 0.75],
    [String.raw`rigg(?:ed|ing) ${W}{0,2}(?:tenders?|contracts?|bids?|procurement)`, 0.7],
  ],
  SANCTIONS_EVASION: [
    [String.raw`sanctions?[- ](?:evasion|busting|breach(?:es)?|violations?|dodging|circumvention)`, 0.9],
    [String.raw`(?:evad|circumvent|dodg|bust|bypass|skirt|breach|violat|flout|break)(?:e|ed|es|ing|s)? ${W}{0,3}(?:sanctions|(?:arms )?embargo(?:es)?)|in (?:breach|violation|defiance) of ${W}{0,6}(?:sanctions|(?:arms )?embargo(?:es)?)`, 0.9],
    [String.raw`(?:trad(?:e|ed|ing)|dealings?|business) with ${W}{0,2}(?:sanctioned|blacklisted|designated) (?:entities|individuals|companies|banks|persons|parties|vessels|regimes?)`, 0.7],
    [String.raw`ship[- ]to[- ]ship transfers?|front compan(?:y|ies)`, 0.45],
    [String.raw`dark fleet|shadow fleet|(?:disabled|switched off|turned off) ${W}{0,2}(?:transponders?|AIS)`, 0.6],
    [String.raw`export[- ]control (?:violations|breaches|offen[cs]es)|proliferation financing`, 0.7],
    [String.raw`dual[- ]use (?:goods|items|technology|components)`, 0.35],
  ],
  TERRORISM_FINANCING: [
    [String.raw`terror(?:ist|ism)?[- ](?:financ(?:e|es|ed|ing|ier|iers)|funding|funders?)`, 0.95],
    [String.raw`(?:financ|fund)(?:e|es|ed|ing|s)? ${W}{0,2}terror(?:ism|ists?|ist (?:groups?|organi[sz]ations?|cells?|attacks?))`, 0.9],
    [String.raw`material support (?:to|for)`, 0.75],
    [String.raw`designated (?:as an? )?(?:global |foreign )?terrorists?`, 0.6],
    [String.raw`terrorist (?:groups?|organi[sz]ations?|cells?|networks?)|jihadists?`, 0.45],
    [String.raw`Islamic State|ISIS|ISIL|al[- ]Qaeda|al[- ]Shabaab|Hezbollah|Boko Haram|hawala`, 0.35],
  ],
  ORGANIZED_CRIME: [
    [String.raw`organi[sz]ed crime|racketeering|RICO|gangland`, 0.8],
    [String.raw`crime (?:syndicates?|family|families|boss(?:es)?|rings?|gangs?|groups?|networks?|lords?)`, 0.8],
    [String.raw`criminal (?:gangs?|networks?|organi[sz]ations?|syndicates?|enterprises?|groups?|clans?)`, 0.75],
    [String.raw`mafia|mafioso|mobsters?|'Ndrangheta|Camorra|Cosa Nostra|Yakuza|triads?|Bratva`, 0.7],
    [String.raw`extort(?:ion|ed|ing|s)?`, 0.6],
    [String.raw`cartels?`, 0.45],
  ],
  TAX_CRIMES: [
    [String.raw`tax[- ](?:evasion|evaders?|fraud|dodg(?:e|es|ing|er|ers)|crimes?|offen[cs]es?|cheat(?:s|ing)?|scams?)`, 0.9],
    [String.raw`(?:evad|dodg)(?:e|ed|es|ing) ${W}{0,3}(?:taxes|tax|VAT|duties|customs duties)`, 0.9],
    [String.raw`(?:VAT|carousel|missing[- ]trader) fraud`, 0.9],
    [String.raw`undeclared (?:income|offshore|accounts?|assets|earnings|funds|profits)`, 0.7],
    [String.raw`fail(?:ed|ing|s)? to (?:declare|report|pay) ${W}{0,3}(?:income|earnings|taxes|tax|profits)`, 0.6],
    [String.raw`hid(?:e|es|ing|den)? ${W}{0,4}from (?:the )?(?:tax authorities|taxman|IRS|HMRC|revenue)`, 0.7],
    [String.raw`abusive tax shelters?|(?:unpaid|back) taxes`, 0.45],
  ],
  CYBERCRIME: [
    [String.raw`ransomware|cyber[- ]?(?:crimes?|criminals?|attacks?|fraud|theft|extortion|heist)|computer (?:fraud|misuse|hacking|intrusions?)`, 0.8],
    [String.raw`phishing|identity theft|SIM[- ]swap(?:s|ping)?|crypto(?:currency)? (?:theft|heist)`, 0.75],
    [String.raw`hack(?:s|ed|ing|ers?)|malware|botnets?|DDoS`, 0.6],
    [String.raw`(?:dark ?web|darknet) (?:markets?|marketplaces?|vendors?|sites?)|stolen (?:credentials|passwords|card data|credit card (?:numbers|data)|personal data)`, 0.7],
    [String.raw`data breach(?:es)?`, 0.35],
  ],
  DRUG_TRAFFICKING: [
    [String.raw`drugs?[- ](?:trafficking|traffickers?|smuggling|smugglers?|cartels?|lords?|kingpins?|rings?|dealing|dealers?|running|mules?|trade|gangs?|money)`, 0.9],
    [String.raw`narco[- ]?(?:traffick\w*|state|gangs?|cartels?|money|dollars|smuggl\w*)|narcotraffick\w*`, 0.8],
    [String.raw`(?:traffick|smuggl|deal|sell|distribut|import|export)\w* ${W}{0,3}(?:cocaine|heroin|fentanyl|methamphetamine|narcotics)|smuggl\w* ${W}{0,3}drugs`, 0.85],
    [String.raw`cocaine|heroin|fentanyl|methamphetamine|narcotics`, 0.45],
  ],
  HUMAN_TRAFFICKING: [
    [String.raw`human[- ]trafficking|sex[- ]trafficking|traffick(?:ing|ed|ers?) (?:in )?${W}{0,2}(?:women|children|girls|boys|people|persons|humans|migrants|workers|minors)`, 0.95],
    [String.raw`(?:people|migrant|human)[- ]smuggl(?:ing|ers?)|smuggl(?:e|ed|ing) ${W}{0,2}migrants`, 0.85],
    [String.raw`forced labou?r|modern slavery|debt bondage`, 0.7],
    [String.raw`(?:sexual|labou?r) exploitation|child labou?r`, 0.55],
  ],
  ARMS_TRAFFICKING: [
    [String.raw`(?:arms|weapons?|guns?|firearms?|munitions?|ammunition)[- ](?:trafficking|traffickers?|smuggling|smugglers?|running|runners?)|gun-?running`, 0.9],
    [String.raw`(?:smuggl|traffick)(?:e|ed|es|ing|s)? ${W}{0,3}(?:arms|weapons|guns|firearms|ammunition|munitions|missiles)`, 0.85],
    [String.raw`illegal (?:arms|weapons|firearms?) (?:sales?|deals?|exports?|shipments?|trade)`, 0.85],
  ],
  MARKET_ABUSE: [
    [String.raw`insider (?:trading|dealing|traders?)|market (?:manipulation|abuse|rigging)|pump[- ]and[- ]dump`, 0.9],
    [String.raw`manipulat(?:e|ed|es|ing|ion of) ${W}{0,2}(?:share prices?|stock prices?|markets?|prices|benchmarks?|LIBOR|rates)`, 0.85],
    [String.raw`front[- ]running|wash trad(?:es|ing)|spoofing`, 0.75],
    [String.raw`securities fraud`, 0.7],
  ],
  REGULATORY_ENFORCEMENT: [
    [String.raw`enforcement (?:action|notice|proceedings)|deferred prosecution agreement|consent (?:order|decree)|cease[- ]and[- ]desist`, 0.75],
    [String.raw`${ENFORCERS} (?:has |have |had )?(?:fined|charged|sanctioned|penali[sz]ed|censured|banned|suspended|sued)`, 0.8],
    [String.raw`fined|fines? of|(?:civil |monetary |financial )?penalt(?:y|ies) (?:of|totalling|totaling|worth)`, 0.5],
    [String.raw`censured|public censure|debarred|disqualified (?:as a|from acting as a|from being a) director`, 0.7],
    [String.raw`licen[cs]es? (?:was |were |has been |had been )?(?:revoked|suspended|withdrawn|cancell?ed)|(?:revok|suspend|withdr[ae]w|cancell?)(?:e|ed|es|ing|s|n)? ${W}{0,2}licen[cs]es?`, 0.8],
    [String.raw`banned from ${W}{0,3}(?:industry|acting|serving|trading|practi[sc]ing|holding)|(?:decision|order) to (?:ban|fine|censure|suspend)|ban(?:s|ned|ning)? (?:him|her|them|it) (?:from|for)`, 0.7],
    [String.raw`(?:settled|settlement) with (?:the )?${ENFORCERS}`, 0.7],
    [String.raw`(?:AML|anti[- ]money[- ]laundering|compliance|KYC|know[- ]your[- ]customer|sanctions) ${W}{0,2}(?:failures|failings|breaches|violations|lapses|deficiencies|shortcomings|weaknesses)`, 0.7, 'raw'],
    [String.raw`breach(?:ed|es|ing)? (?:of )?(?:[\w-]+ ){0,4}(?:rules|regulations|requirements|obligations)|regulatory (?:breaches|failings|failures|violations|probe|investigation|action)`, 0.55, 'raw'],
  ],
};

const compile = (source: string) => new RegExp(String.raw`\b(?:${source})\b`, 'gi');

export const RISK_TERMS: RiskTerm[] = Object.entries(LEXICON).flatMap(([category, terms]) =>
  terms.map(([source, strength, raw]) => ({ category: category as RiskCategory, pattern: compile(source), strength, ...(raw ? { raw: true } : {}) })),
);

/**
 * Ordinary-language uses of risk words that accuse nobody: compliance jobs,
 * products and rules ("anti-money-laundering compliance officer", "fraud
 * prevention software", "modern slavery statement"). They are blanked out
 * before the lexicon is matched.
 */
const NEUTRAL_NOUNS = String.raw`(?:compliance|officers?|teams?|departments?|functions?|programmes?|programs?|polic(?:y|ies)|procedures|training|software|tools?|solutions?|platforms?|products?|vendors?|providers?|start-?ups?|specialists?|experts?|consultants?|consultancy|analysts?|analytics|screening|checks|controls?|systems?|technology|conferences?|summits?|awareness|campaigners?|activists?|initiatives?|certifications?|courses?|hotlines?|insurance|risks?|prevention|detection|protection|monitoring|reporting|statements?)`;
const NEUTRAL_SUBJECTS = String.raw`(?:(?:anti|counter)[- ]?(?:money[- ]?laundering|fraud|bribery|corruption|terror(?:ism|ist)?(?:[- ]financing)?|financial[- ]crimes?|trafficking|tax[- ]evasion|scam|phishing|malware)|AML(?:/CFT)?|CFT|KYC|fraud|scam|money[- ]?laundering|bribery|corruption|sanctions|cyber[- ]?crime|phishing|ransomware|modern slavery|financial[- ]crimes?)`;

export const NEUTRAL_COMPOUNDS: RegExp[] = [
  new RegExp(String.raw`\b${NEUTRAL_SUBJECTS}(?:[ -](?:and|&|or)[ -]${NEUTRAL_SUBJECTS})?(?:[ -](?:compliance|risk|prevention|detection))?[ -]${NEUTRAL_NOUNS}\b`, 'gi'),
  new RegExp(String.raw`\b(?:anti|counter)[- ]?(?:money[- ]?laundering|fraud|bribery|corruption|terror(?:ism|ist)?(?:[- ]financing)?)\b`, 'gi'),
  new RegExp(String.raw`\b(?:price[- ]fixing|opec|oil|cement) cartels?\b|\b(?:ethical|growth) hack(?:ing|ers?)\b|\bhackathons?\b`, 'gi'),
];
