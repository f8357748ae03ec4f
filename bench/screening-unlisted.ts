// Held-out names that are not listed, for the false-positive rate: the most
// common given names and family names of many cultures, combined in each
// culture's order (family name first in Chinese, Korean and Vietnamese), the
// issue's own examples, and ordinary company names. A name that sounds like
// a listed name word for word (Double Metaphone, order aside) is left out:
// it is a transliteration of a listed name (Ahmad Hassan for Ahmed HASSAN),
// and a hit on it is a correct hit, not a false one.
import { nameKey, seededRandom, soundKey } from './screening-names.ts';

interface Culture {
  culture: string;
  given: string[];
  family: string[];
  familyFirst?: boolean;
}

const w = (text: string) => text.split(' ');
const CULTURES: Culture[] = [
  { culture: 'English', given: w('James Mary John Patricia Robert Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Margaret Anthony Emily Mark Sandra'), family: w('Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Jackson Martin Lee Thompson White Harris Clark Lewis Walker Hall Young Allen King Wright Scott Green Baker Adams') },
  { culture: 'Spanish and Latin American', given: w('José María Juan Carmen Luis Ana Carlos Lea Jorge Laura Manuel Rosa Pedro Lucía Miguel Sofía Javier Isabel Diego Valentina'), family: w('García Rodríguez Martínez Hernández López González Pérez Sánchez Ramírez Torres Flores Rivera Gómez Díaz Reyes Morales Cruz Ortiz Castillo Vargas') },
  { culture: 'French', given: w('Léa Jean Marie Pierre Camille Louis Chloé Nicolas Julie Thomas Manon Hugo Inès Antoine Claire'), family: w('Martin Bernard Dubois Thomas Robert Richard Petit Durand Leroy Moreau Simon Laurent Lefebvre Michel Garcia') },
  { culture: 'German', given: w('Lukas Anna Leon Mia Paul Hannah Felix Lena Jonas Laura Maximilian Sophie Elias Marie Jan'), family: w('Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schulz Hoffmann Koch Richter Klein Wolf Neumann') },
  { culture: 'Chinese', given: w('Wei Fang Na Min Jing Li Qiang Lei Jun Yang Yong Jie Tao Ming Hui Xiuying Yan Ping Gang Hong'), family: w('Li Wang Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu'), familyFirst: true },
  { culture: 'Korean', given: w('Young Min-jun Seo-yeon Ji-ho Ji-woo Young-ho Eun-ji Hyun-woo Soo-jin Jae-won Sung-min Min-seo Ha-eun Do-yoon Ye-jin'), family: w('Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Shin Seo Kwon Hwang'), familyFirst: true },
  { culture: 'Japanese', given: w('Haruto Yui Sota Hina Ren Yuki Takeshi Akiko Hiroshi Yoko Kenji Naoko Daiki Aoi Riku'), family: w('Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato Yoshida Yamada Sasaki Yamaguchi Matsumoto') },
  { culture: 'Vietnamese', given: w('Anh Linh Minh Thanh Hung Lan Huong Tuan Dung Trang Hai Mai'), family: w('Nguyen Tran Le Pham Hoang Phan Vu Vo Dang Bui'), familyFirst: true },
  { culture: 'Indian', given: w('Rahul Priya Amit Sunita Anil Pooja Raj Deepak Neha Sanjay Anjali Vikram Kavita Suresh Lakshmi'), family: w('Sharma Kumar Singh Patel Gupta Reddy Shah Verma Rao Joshi Iyer Nair Das Mehta Chopra') },
  { culture: 'Arabic', given: w('Mohammed Ahmed Fatima Ali Omar Aisha Hassan Yousef Layla Khalid Mariam Nour Karim Huda Tariq Rania Sami Lina'), family: w('Haddad Khoury Nasser Hamdan Saleh Mansour Aziz Khalil Ibrahim Farouk Sabbagh Darwish Qasim Barakat Jaber') },
  { culture: 'Persian', given: w('Reza Zahra Ali Maryam Hossein Fatemeh Mohammad Sara Amir Narges Mehdi Parisa'), family: w('Hosseini Mohammadi Rezaei Ahmadi Karimi Rahimi Moradi Jafari Sadeghi Kazemi') },
  { culture: 'Pakistani', given: w('Muhammad Ayesha Imran Sana Bilal Hina Usman Zainab Fahad Amna'), family: w('Khan Ahmed Hussain Malik Iqbal Butt Qureshi Chaudhry Raza Siddiqui') },
  { culture: 'Turkish', given: w('Mehmet Ayşe Mustafa Fatma Ahmet Emine Ali Hatice Hüseyin Zeynep Emre Elif'), family: w('Yılmaz Kaya Demir Şahin Çelik Yıldız Yıldırım Öztürk Aydın Özdemir') },
  { culture: 'Russian', given: w('Aleksandr Sergey Dmitry Andrey Alexey Maxim Ivan Nikolai Mikhail Vladimir'), family: w('Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov') },
  { culture: 'Russian', given: w('Elena Olga Tatiana Natalia Irina Svetlana Anna Maria Ekaterina Yulia'), family: w('Ivanova Smirnova Kuznetsova Popova Vasilieva Petrova Sokolova Mikhailova Novikova Fedorova') },
  { culture: 'West African', given: w('Chinedu Ngozi Emeka Aisha Oluwaseun Funmilayo Ibrahim Musa Kwame Abena Kofi Ama Yaw Adwoa'), family: w('Okafor Adeyemi Okeke Bello Eze Ogunleye Mensah Owusu Boateng Asante Danjuma Obi') },
  { culture: 'East African', given: w('Wanjiru Kamau Otieno Achieng Mwangi Njeri Baraka Amani Juma Neema'), family: w('Mwangi Kamau Otieno Ochieng Kariuki Njoroge Wafula Mutua Kiprop Onyango') },
  { culture: 'Portuguese and Brazilian', given: w('João Maria Ana Pedro Gabriel Beatriz Lucas Mariana Rafael Juliana'), family: w('Silva Santos Oliveira Souza Pereira Costa Rodrigues Almeida Nascimento Ferreira') },
  { culture: 'Italian', given: w('Giuseppe Maria Giovanni Anna Marco Francesca Luca Giulia Alessandro Chiara'), family: w('Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco') },
  { culture: 'Polish', given: w('Piotr Anna Krzysztof Maria Tomasz Katarzyna Paweł Agnieszka Michał Magdalena'), family: w('Nowak Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski') },
  { culture: 'Indonesian and Malay', given: w('Budi Siti Agus Dewi Ahmad Nur Putri Rizky Sri Hendra'), family: w('Santoso Wijaya Kusuma Hidayat Saputra Pratama Setiawan Rahman Lim Tan') },
];

/** The issue's own examples: common names near listed ones. */
const EXAMPLES = ['Mary Taylor', 'Li Wei', 'Kim Young', 'Jose Garcia', 'David Martin', 'Lea Garcia'];

const ORG_FIRST = w('Global United National International Northern Eastern Pacific Atlantic Royal First Central Golden Star Green Blue Sun Crescent Ocean Summit Prime Metro Alpine Coastal Silver Eagle');
const ORG_TRADE = w('Petroleum Trading Logistics Shipping Construction Textiles Foods Motors Investments Consulting Electronics Pharmaceuticals Insurance Energy Steel Marine Travel Software Security Agro Dairy Furniture Printing Plastics Cement');
const ORG_FORM = ['Company', 'LLC', 'Ltd', 'GmbH', 'S.A.', 'Inc.', 'Corporation', 'Group', 'Holdings', 'Co. Ltd', ''];

export interface UnlistedName {
  name: string;
  kind: 'PERSON' | 'ORGANIZATION';
  /** The culture of the name's words, or "organization" / "issue examples". */
  group: string;
}

/**
 * `persons` person names (the examples first) and `organizations`
 * company names, none of which is listed or sounds like a listed name;
 * with how many sound-alikes were left out.
 */
export function heldOutUnlisted(
  listedNames: Iterable<string>,
  persons = 1500,
  organizations = 300,
  seed = 424_242,
): { names: UnlistedName[]; soundAlikesLeftOut: number; examplesLeftOut: string[] } {
  const listedSounds = new Map<string, string>();
  const listedKeys = new Set<string>();
  for (const name of listedNames) {
    const sound = soundKey(name);
    if (!listedSounds.has(sound)) listedSounds.set(sound, name);
    listedKeys.add(nameKey(name));
  }
  const examplesLeftOut: string[] = [];
  const random = seededRandom(seed);
  const oneOf = <T>(values: readonly T[]) => values[Math.floor(random() * values.length)]!;
  const seen = new Set<string>();
  const names: UnlistedName[] = [];
  let soundAlikesLeftOut = 0;
  const offer = (name: string, kind: UnlistedName['kind'], group: string) => {
    const key = nameKey(name);
    if (seen.has(key)) return;
    seen.add(key);
    const soundsLike = listedSounds.get(soundKey(name));
    if (listedKeys.has(key) || soundsLike) {
      soundAlikesLeftOut++;
      if (group === 'issue examples') examplesLeftOut.push(`${name} (listed: ${soundsLike ?? name})`);
      return;
    }
    names.push({ name, kind, group });
  };
  for (const name of EXAMPLES) offer(name, 'PERSON', 'issue examples');
  for (let attempts = 0; names.length < persons && attempts < persons * 20; attempts++) {
    const culture = oneOf(CULTURES);
    const given = chanceOfSecondGiven(random) ? `${oneOf(culture.given)} ${oneOf(culture.given)}` : oneOf(culture.given);
    const family = oneOf(culture.family);
    offer(culture.familyFirst ? `${family} ${given}` : `${given} ${family}`, 'PERSON', culture.culture);
  }
  const personCount = names.length;
  for (let attempts = 0; names.length < personCount + organizations && attempts < organizations * 20; attempts++) {
    const parts = random() < 0.3 ? [oneOf(ORG_TRADE), oneOf(ORG_FORM)] : [oneOf(ORG_FIRST), oneOf(ORG_TRADE), oneOf(ORG_FORM)];
    offer(parts.filter(Boolean).join(' '), 'ORGANIZATION', 'organization');
  }
  return { names, soundAlikesLeftOut, examplesLeftOut };
}

const chanceOfSecondGiven = (random: () => number) => random() < 0.15;
