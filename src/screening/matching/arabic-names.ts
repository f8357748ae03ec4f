// Arabic names built on Abd ("servant of") written the many ways lists and
// customers write them, brought to one form word by word.

/** The word Abd ("servant of") as names are compared: a prefix of the name after it, saying little on its own. */
export const SERVANT = 'abd';
/** Standalone spellings of Abd with the article: Abd, Abdul, Abdel, Abdal, Abdur, Abdus ... (not Abdi, Abdu, Abdo: names of their own). */
const ABD_WORD = /^abd(?:[aeiou][lrsntdz])?$/;
/** Abd run together with the article and the name (Abdulrahman, Abdurrahman, Abdelkader, Abdullah). */
const ABD_JOINED = /^abd([aeiou])([lrsntdz])([a-z]+)$/;
/** The article written apart after Abd (Abd al-Rahman, Abd ar-Rahman, Persian Abd ol-Rahman). */
const ARTICLES = new Set(['al', 'el', 'ul', 'il', 'ol', 'ar', 'ur', 'er', 'as', 'us', 'es', 'an', 'un', 'en', 'ad', 'ud', 'ed', 'at', 'ut', 'az', 'uz']);
/** Allah after Abd, whatever the vowel of its article (Abd Allah, Abdullah, Abdallah, Abdulla). */
const ALLAH = /^[aeiu]?ll?ah?$/;

/**
 * Arabic names built on Abd ("servant of"): Abd al-Nasir, Abdul Nasir,
 * Abdel Nasser, Abdelnasser, Abd Allah, Abdullah are written many ways.
 * Each becomes the word "abd" and the name after it without its article
 * (abd nasir, abd nasser, abd lah), so that they align word by word, and a
 * name lacking Abd (Rahman Yasin) still meets the one with it.
 */
export function servantOf(all: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < all.length; i++) {
    const word = all[i]!;
    const joined = ABD_JOINED.exec(word);
    if (ABD_WORD.test(word) && i + 1 < all.length) {
      out.push(SERVANT);
      if (ARTICLES.has(all[i + 1]!) && i + 2 < all.length) i++;
      const next = all[i + 1]!;
      // The article written onto the name (Abd alKhaliq).
      out.push(ALLAH.test(next) ? 'lah' : next.replace(/^[aeu]l(?=[a-z]{3})/, ''));
      i++;
    } else if (joined) {
      const [, , consonant, rest] = joined;
      // An assimilated article doubles the name's first letter (Abdur-Rahman: abd ar-rahman); otherwise the consonant begins the name (Abdurahman).
      const name = consonant === 'l' || rest!.startsWith(consonant!) ? rest! : consonant! + rest!;
      if (name.length >= 3 || name.startsWith('l')) out.push(SERVANT, ALLAH.test(`a${name}`) ? 'lah' : name);
      else out.push(word);
    } else {
      out.push(word);
    }
  }
  return out;
}
