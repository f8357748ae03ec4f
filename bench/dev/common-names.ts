// DEVELOPMENT data for the matcher (issue 19, round 2): very common given and
// family names of the cultures whose common names the screening must not
// report, and ordinary company names, written from general knowledge of
// name-frequency lists (national statistics offices' top-name tables, as
// summarized in encyclopedia lists of most common surnames and given names).
// Tests and the dev bench tune on these; the held-out evaluation has its own.

export interface Culture {
  name: string;
  given: string[];
  family: string[];
  /** How a full name is put together from a random given and family name (and a second given name where the culture has one). */
  compose: (given: () => string, family: () => string, random: () => number) => string;
}

const words = (text: string) => text.trim().split(/\s+/);
const pick = (values: string[], random: () => number) => values[Math.floor(random() * values.length)]!;

export const CULTURES: Culture[] = [
  {
    name: 'Arabic',
    given: words(`Mohammed Ahmed Ali Mahmoud Omar Youssef Khaled Hassan Hussein Ibrahim Mustafa Abdullah Abdulrahman Said Saleh
      Tariq Karim Nabil Samir Walid Hamza Yasser Adel Faisal Majid Rashid Nasser Jamal Sami Fadi Ziad Bilal Anas Amr Hani Hatem
      Fatima Aisha Maryam Zainab Khadija Layla Noura Huda Amal Salma Rania Hanan Sara Mona Dina Reem Lina Yasmin Nour Ghada`),
    family: words(`Hassan Ali Mohamed Ahmed Ibrahim Mahmoud Khalil Haddad Mansour Saleh Nasser Youssef Abdallah Hussein Omar
      Othman Suleiman Awad Darwish Aziz Qasim Hamdan Jaber Sabbagh Khoury Azzam Shaheen Bakr Taha Rahman Farouk Salem Zaki
      Mustafa Hamad Rashid Masri Najjar Tamimi Obeid Sharif Fakhoury Odeh Barakat Hijazi Zoubi Shami Halabi Kassem Amin`),
    compose: (given, family, random) => {
      const form = random();
      // Given, father's and family name; with bin; with the article; Abd names; given and family only.
      if (form < 0.25) return `${given()} ${given()} ${family()}`;
      if (form < 0.4) return `${given()} bin ${given()} ${family()}`;
      if (form < 0.55) return `${given()} ${given()} Al-${family()}`;
      if (form < 0.7) return `${pick(['Abdel', 'Abdul', 'Abd al-'], random)}${pick(['Rahman', 'Aziz', 'Karim', 'Latif', 'Hamid', 'Majid', 'Nasser', 'Qader'], random)} ${family()}`;
      return `${given()} ${family()}`;
    },
  },
  {
    name: 'Spanish and Latin American',
    given: words(`Jose Juan Luis Carlos Jorge Miguel Antonio Manuel Francisco Pedro Javier Alejandro Fernando Ricardo Roberto
      Eduardo Sergio Rafael Diego Andres Pablo Raul Oscar Hector Victor Maria Carmen Ana Laura Isabel Rosa Lucia Sofia Elena
      Patricia Marta Teresa Gabriela Claudia Andrea Paula Adriana Veronica Daniela Alejandra Beatriz Silvia Monica Julia`),
    family: words(`Garcia Rodriguez Martinez Lopez Gonzalez Hernandez Perez Sanchez Ramirez Torres Flores Rivera Gomez Diaz
      Cruz Morales Reyes Gutierrez Ortiz Ramos Romero Alvarez Mendoza Ruiz Castillo Jimenez Moreno Vargas Castro Herrera
      Medina Aguilar Vazquez Guerrero Rojas Nunez Munoz Silva Suarez Delgado Molina Ortega Navarro Dominguez Fernandez`),
    compose: (given, family, random) => (random() < 0.35 ? `${given()} ${given()} ${family()} ${family()}` : random() < 0.5 ? `${given()} ${family()} ${family()}` : `${given()} ${family()}`),
  },
  {
    name: 'Russian',
    given: words(`Aleksandr Sergei Dmitry Andrei Alexei Maxim Ivan Mikhail Nikolai Vladimir Yuri Pavel Oleg Viktor Igor Roman
      Artem Denis Evgeny Anton Konstantin Boris Grigory Vadim Stanislav Anna Elena Olga Natalia Tatiana Irina Svetlana
      Maria Ekaterina Anastasia Yulia Marina Ludmila Galina Daria Ksenia Polina Vera Nadezhda Oksana`),
    family: words(`Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Mikhailov Novikov Fedorov Morozov Volkov Alekseev
      Lebedev Semenov Egorov Pavlov Kozlov Stepanov Nikolaev Orlov Andreev Makarov Nikitin Zakharov Zaitsev Soloviev
      Borisov Yakovlev Grigoriev Romanov Vorobiev Sergeev Kuzmin Frolov Alexandrov Dmitriev Korolev Gusev Kiselev
      Ilyin Maximov Polyakov Sorokin Vinogradov Kovalev Belov Medvedev Antonov Tarasov Zhukov Baranov Filippov Komarov`),
    compose: (given, family, random) => {
      const form = random();
      const patronymic = `${given().replace(/[aeiyj]$/, '')}ovich`;
      // Given, patronymic, family; the official order family, given, patronymic; given and family.
      if (form < 0.3) return `${given()} ${patronymic} ${family()}`;
      if (form < 0.55) return `${family()} ${given()} ${patronymic}`;
      return `${given()} ${family()}`;
    },
  },
  {
    name: 'Korean',
    given: words(`Min-jun Seo-jun Do-yun Ye-jun Si-woo Ha-jun Ji-ho Joo-won Ji-hoon Hyun-woo Jun-seo Dong-hyun Sung-min
      Young-ho Jae-hyun Sang-woo Seung-hoon Jin-woo Tae-hyun Kyung-soo Seo-yeon Ji-woo Ha-eun Seo-yun Min-seo Ji-yoo
      Su-ah Ha-yoon Ji-min Eun-ji Hye-jin Soo-jin Yoo-jin Mi-kyung Eun-young Jung-hee Young-hee Sun-hee Min-ji`),
    family: words(`Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim Han Oh Seo Shin Kwon Hwang Ahn Song Jeon Hong Yoo Ko Moon
      Yang Son Bae Baek Heo Nam Noh Ha Kwak Sung Cha Joo Woo Min Ryu Na Jin`),
    compose: (given, family, random) => {
      const g = given();
      const form = random();
      // Family name first, the given name hyphenated, spaced or joined; or given name first, as abroad.
      if (form < 0.3) return `${family()} ${g}`;
      if (form < 0.5) return `${family()} ${g.replace('-', ' ')}`;
      if (form < 0.7) return `${family()} ${g.replace('-', '').toLowerCase()}`;
      return `${g} ${family()}`;
    },
  },
  {
    name: 'Chinese',
    given: words(`Wei Fang Min Jing Li Qiang Lei Jun Yang Yong Yan Jie Tao Ming Chao Xiuying Xia Ping Gang Hui Hong Bo
      Xin Yu Hao Yi Chen Lin Ling Na Ting Juan Peng Bin Hua Kai Long Ning Qing Rui`),
    family: words(`Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Gao Luo Zheng Liang Xie Song
      Tang Han Feng Deng Cao Peng Zeng Xiao Tian Dong Pan Yuan Cai Jiang Yu Du Ye Cheng Wei Su Lu Ding Ren Shen Yao`),
    compose: (given, family, random) => (random() < 0.3 ? `${family()} ${given()}${given().toLowerCase()}` : random() < 0.6 ? `${family()} ${given()}` : `${given()} ${family()}`),
  },
  {
    name: 'Persian',
    given: words(`Mohammad Ali Reza Hossein Mehdi Amir Hamid Saeed Mohsen Majid Hassan Ahmad Javad Behnam Babak Dariush Farhad
      Kourosh Masoud Morteza Navid Omid Payam Ramin Shahram Vahid Arash Fatemeh Zahra Maryam Narges Leila Sara Parisa
      Shirin Mahsa Nasrin Azadeh Roya Elham Neda Mina Samira Niloufar Ladan Golnaz`),
    family: words(`Mohammadi Hosseini Ahmadi Rezaei Moradi Karimi Jafari Rahimi Heidari Hashemi Mousavi Ghasemi Kazemi Sadeghi
      Rostami Akbari Ebrahimi Amini Mahmoudi Bagheri Nazari Abbasi Shahbazi Farahani Tehrani Esfahani Shirazi Kermani Najafi
      Rahmani Soltani Zamani Asadi Nouri Habibi Salehi Yousefi Ansari Khani Taheri Alavi Naderi Fazeli Golestani`),
    compose: (given, family) => `${given()} ${family()}`,
  },
  {
    name: 'English',
    given: words(`James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony Mark
      Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen Nancy Lisa Betty Margaret Sandra`),
    family: words(`Smith Johnson Williams Brown Jones Miller Davis Wilson Anderson Taylor Thomas Moore Jackson Martin Lee
      Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott Hill Green Adams Baker Nelson`),
    compose: (given, family) => `${given()} ${family()}`,
  },
];

/** Ordinary company names: a common word or surname, a trade, a legal form. */
export const COMPANY_WORDS = {
  first: words(`Global Pacific Atlantic United National General Prime Golden Royal Star Sun Eagle Summit Pioneer Alpha Delta
    Omega Apex Blue Green Silver Northern Southern Eastern Western Central First Capital Premier Modern Smart Future Bright
    Ocean River Mountain Horizon Crystal Diamond Falcon Lion Phoenix Unity Liberty Victory Metro City Euro Asia Afro Arab
    Sahara Nile Gulf Orient Continental International Smith Johnson Garcia Hassan Ivanov Kim Wang Rossi Muller`),
  trade: words(`Trading Logistics Shipping Construction Engineering Consulting Technologies Solutions Services Industries
    Electronics Foods Textiles Pharma Chemicals Energy Petroleum Oil Gas Mining Metals Steel Motors Auto Transport Travel
    Tours Media Holdings Investments Capital Finance Insurance Properties Realty Development Agro Farms Fisheries Marine
    Aviation Airlines Telecom Software Systems Medical Healthcare Foods Beverages Packaging Plastics Furniture Garments
    Imports Exports Supplies Equipment Machinery Security`),
  form: ['LLC', 'Ltd', 'Limited', 'Inc', 'Co.', 'Company', 'Corporation', 'GmbH', 'S.A.', 'S.A.R.L.', 'FZE', 'JSC', 'LLP', 'Pte Ltd', 'Co., Ltd.', 'SRL', 'B.V.', 'PLC', 'Group', ''],
};
