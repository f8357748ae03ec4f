// Industry risk from a NAICS code. Each entry covers every code it is a
// prefix of (7132 covers 713210 and 713290); the longest matching prefix
// wins, so a sector can be MEDIUM and one industry in it HIGH. Codes of both
// NAICS 2017 and 2022 are listed where retail and finance were renumbered.
// A code matching nothing is LOW. NAICS has no code for virtual-asset
// service providers: they are usually filed under 522320 (HIGH) or must be
// flagged by hand.
//
// Sources for the sectors: FATF Recommendations R.14 (money or value
// transfer services), R.15 (virtual assets), R.22 (DNFBPs: casinos, real
// estate agents, dealers in precious metals and stones, lawyers, notaries,
// accountants, trust and company service providers), R.8 (non-profit
// organisations); FATF reports "Money Laundering and Terrorist Financing in
// the Art and Antiquities Market" (2023) and "Trade-Based Money Laundering"
// (2020); FinCEN's definition of money services businesses (31 CFR
// 1010.100(ff)) and its AML rules for dealers in precious metals, precious
// stones or jewels (31 CFR 1027) and casinos (31 CFR 1021); the FFIEC BSA/AML
// Examination Manual sections on cash-intensive businesses and
// non-governmental organizations and charities.

export type IndustryRiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface IndustryRiskEntry {
  prefix: string;
  level: IndustryRiskLevel;
  sector: string;
  reason: string;
}

export interface IndustryRisk {
  naicsCode: string;
  level: IndustryRiskLevel;
  /** The table entry that decided, null when nothing matched (LOW). */
  matched: IndustryRiskEntry | null;
  reason: string;
}

const MSB = 'money services business (FATF R.14; FinCEN 31 CFR 1010.100(ff))';
const DPMS = 'dealer in precious metals and stones (FATF R.22; FinCEN 31 CFR 1027)';
const CASH = 'cash-intensive business (FFIEC BSA/AML Manual)';
const HIGH_VALUE = 'high-value goods often bought with cash';

export const INDUSTRY_RISK_TABLE: readonly IndustryRiskEntry[] = [
  // Money and value transfer, payments, currency exchange
  { prefix: '5221', level: 'MEDIUM', sector: 'Depository credit intermediation (banks)', reason: 'financial institution customer: correspondent-banking exposure (FATF R.13)' },
  { prefix: '5223', level: 'MEDIUM', sector: 'Activities related to credit intermediation', reason: 'loan brokers and payment intermediaries handle third-party funds' },
  { prefix: '522320', level: 'HIGH', sector: 'Financial transactions processing (payments, funds transfer)', reason: `payment and money-transfer services, incl. peer-to-peer and crypto MSBs: ${MSB}; FATF R.15 for virtual assets` },
  { prefix: '522390', level: 'HIGH', sector: 'Check cashing, money orders, traveler\'s checks', reason: `check cashers and issuers of money orders: ${MSB}` },
  { prefix: '522298', level: 'HIGH', sector: 'All other nondepository credit intermediation (NAICS 2017; pawnshops)', reason: `pawnshops: ${CASH}, ${HIGH_VALUE}` },
  { prefix: '522299', level: 'HIGH', sector: 'All other nondepository credit intermediation (NAICS 2022; pawnshops)', reason: `pawnshops: ${CASH}, ${HIGH_VALUE}` },
  { prefix: '5231', level: 'MEDIUM', sector: 'Securities and commodity contracts intermediation', reason: 'securities sector: FATF risk-based approach guidance for the securities sector' },
  { prefix: '523130', level: 'HIGH', sector: 'Commodity contracts dealing (NAICS 2017; foreign currency exchange)', reason: `currency exchange dealers: ${MSB}` },
  { prefix: '523160', level: 'HIGH', sector: 'Commodity contracts intermediation (NAICS 2022; foreign currency exchange)', reason: `currency exchange dealers: ${MSB}` },
  // Trust and company service providers
  { prefix: '523991', level: 'HIGH', sector: 'Trust, fiduciary and custody activities', reason: 'trust and company service providers (FATF R.22(e), R.25: legal arrangements)' },
  { prefix: '525920', level: 'HIGH', sector: 'Trusts, estates and agency accounts', reason: 'trusts hide beneficial ownership (FATF R.25)' },
  { prefix: '551112', level: 'MEDIUM', sector: 'Offices of other holding companies', reason: 'holding companies add layers between a business and its owners (FATF R.24)' },
  // Gambling
  { prefix: '7132', level: 'HIGH', sector: 'Gambling industries (casinos, other gambling)', reason: 'casinos and gambling (FATF R.22(a); FinCEN 31 CFR 1021)' },
  { prefix: '721120', level: 'HIGH', sector: 'Casino hotels', reason: 'casinos and gambling (FATF R.22(a); FinCEN 31 CFR 1021)' },
  { prefix: '713120', level: 'MEDIUM', sector: 'Amusement arcades', reason: CASH },
  // Precious metals and stones, art
  { prefix: '423940', level: 'HIGH', sector: 'Jewelry, precious stone and precious metal wholesalers', reason: DPMS },
  { prefix: '448310', level: 'HIGH', sector: 'Jewelry stores (NAICS 2017)', reason: DPMS },
  { prefix: '458310', level: 'HIGH', sector: 'Jewelry retailers (NAICS 2022)', reason: DPMS },
  { prefix: '453920', level: 'HIGH', sector: 'Art dealers (NAICS 2017)', reason: 'art market participants (FATF report on art and antiquities, 2023)' },
  { prefix: '459920', level: 'HIGH', sector: 'Art dealers (NAICS 2022)', reason: 'art market participants (FATF report on art and antiquities, 2023)' },
  { prefix: '453310', level: 'MEDIUM', sector: 'Used merchandise stores (NAICS 2017)', reason: `second-hand goods, incl. pawnshops' retail: ${CASH}` },
  { prefix: '459510', level: 'MEDIUM', sector: 'Used merchandise retailers (NAICS 2022)', reason: `second-hand goods, incl. pawnshops' retail: ${CASH}` },
  // Arms
  { prefix: '332992', level: 'HIGH', sector: 'Small arms ammunition manufacturing', reason: 'arms: sanctions, export-control and proliferation-financing exposure (FATF R.7)' },
  { prefix: '332993', level: 'HIGH', sector: 'Ammunition (except small arms) manufacturing', reason: 'arms: sanctions, export-control and proliferation-financing exposure (FATF R.7)' },
  { prefix: '332994', level: 'HIGH', sector: 'Small arms, ordnance and accessories manufacturing', reason: 'arms: sanctions, export-control and proliferation-financing exposure (FATF R.7)' },
  { prefix: '336992', level: 'HIGH', sector: 'Military armored vehicle and tank manufacturing', reason: 'arms: sanctions, export-control and proliferation-financing exposure (FATF R.7)' },
  // Real estate
  { prefix: '5311', level: 'MEDIUM', sector: 'Lessors of real estate', reason: 'real estate: FATF risk-based approach guidance for the real estate sector (2022)' },
  { prefix: '5312', level: 'HIGH', sector: 'Offices of real estate agents and brokers', reason: 'real estate agents (FATF R.22(b)); real estate is a classic laundering vehicle' },
  { prefix: '5313', level: 'MEDIUM', sector: 'Activities related to real estate', reason: 'real estate: FATF risk-based approach guidance for the real estate sector (2022)' },
  // Vehicles and other high-value goods
  { prefix: '441110', level: 'MEDIUM', sector: 'New car dealers', reason: HIGH_VALUE },
  { prefix: '441120', level: 'HIGH', sector: 'Used car dealers', reason: `${HIGH_VALUE}; cash and third-party payments hard to trace` },
  { prefix: '441222', level: 'MEDIUM', sector: 'Boat dealers', reason: HIGH_VALUE },
  // Gatekeepers
  { prefix: '5411', level: 'MEDIUM', sector: 'Legal services', reason: 'lawyers and notaries as gatekeepers (FATF R.22(d))' },
  { prefix: '5412', level: 'MEDIUM', sector: 'Accounting, tax preparation, bookkeeping', reason: 'accountants as gatekeepers (FATF R.22(d))' },
  // Non-profits: FATF R.8 asks for a risk-based view, not all NPOs as high risk
  { prefix: '8131', level: 'MEDIUM', sector: 'Religious organizations', reason: 'non-profit organisations (FATF R.8)' },
  { prefix: '8132', level: 'HIGH', sector: 'Grantmaking and giving services (charities, foundations)', reason: 'non-profits raising and moving funds, exposed to terrorist-financing abuse (FATF R.8; FFIEC BSA/AML Manual on charities)' },
  { prefix: '8133', level: 'MEDIUM', sector: 'Social advocacy organizations', reason: 'non-profit organisations (FATF R.8)' },
  { prefix: '8134', level: 'MEDIUM', sector: 'Civic and social organizations', reason: 'non-profit organisations (FATF R.8)' },
  // Cash-intensive businesses
  { prefix: '7225', level: 'MEDIUM', sector: 'Restaurants and other eating places', reason: CASH },
  { prefix: '445120', level: 'MEDIUM', sector: 'Convenience stores (NAICS 2017)', reason: CASH },
  { prefix: '445131', level: 'MEDIUM', sector: 'Convenience retailers (NAICS 2022)', reason: CASH },
  { prefix: '445132', level: 'MEDIUM', sector: 'Vending machine operators (NAICS 2022)', reason: CASH },
  { prefix: '454210', level: 'MEDIUM', sector: 'Vending machine operators (NAICS 2017)', reason: CASH },
  { prefix: '4453', level: 'MEDIUM', sector: 'Beer, wine and liquor retailers', reason: CASH },
  { prefix: '4471', level: 'MEDIUM', sector: 'Gasoline stations (NAICS 2017)', reason: CASH },
  { prefix: '4571', level: 'MEDIUM', sector: 'Gasoline stations (NAICS 2022)', reason: CASH },
  { prefix: '453991', level: 'MEDIUM', sector: 'Tobacco stores (NAICS 2017)', reason: CASH },
  { prefix: '459991', level: 'MEDIUM', sector: 'Tobacco and smoking supplies retailers (NAICS 2022)', reason: CASH },
  { prefix: '8123', level: 'MEDIUM', sector: 'Drycleaning and laundry services', reason: CASH },
  { prefix: '811192', level: 'MEDIUM', sector: 'Car washes', reason: CASH },
  { prefix: '812930', level: 'MEDIUM', sector: 'Parking lots and garages', reason: CASH },
  { prefix: '423930', level: 'MEDIUM', sector: 'Recyclable material (scrap metal) wholesalers', reason: CASH },
  // Trade
  { prefix: '488510', level: 'MEDIUM', sector: 'Freight transportation arrangement', reason: 'trade-based money laundering (FATF/Egmont report, 2020)' },
];

const NAICS_CODE = /^\d{2,6}$/;

/** Industry risk of a NAICS code (2 to 6 digits), or null when the text is not one. */
export function industryRisk(naicsCode: string): IndustryRisk | null {
  const code = naicsCode.trim();
  if (!NAICS_CODE.test(code)) return null;
  let matched: IndustryRiskEntry | null = null;
  for (const entry of INDUSTRY_RISK_TABLE) {
    if (code.startsWith(entry.prefix) && (!matched || entry.prefix.length > matched.prefix.length)) matched = entry;
  }
  if (!matched) return { naicsCode: code, level: 'LOW', matched: null, reason: `NAICS ${code} is in no higher-risk sector` };
  return {
    naicsCode: code,
    level: matched.level,
    matched,
    reason: `NAICS ${code} (${matched.sector}, prefix ${matched.prefix}): ${matched.reason}`,
  };
}
