// The API benchmark's dataset: organizations with one key each, consumer
// cases and tasks, written by set-based SQL (INSERT ... SELECT over
// generate_series) as the owner, with every trigger on (events and audit
// rows are written as they would be in use), then ANALYZE.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { displayPrefix, generateApiKey, hashApiKey } from '../../src/auth/api-keys.ts';
import { ALL_PERMISSIONS } from '../../src/auth/permissions.ts';

// Given and family names of many origins, so a two-fragment search matches a
// realistic handful of rows rather than a tenth of the table.
export const GIVEN = [
  'Ada', 'Alan', 'Grace', 'Linus', 'Margaret', 'Dennis', 'Barbara', 'Ken', 'Frances', 'Edsger', 'Radia', 'Donald', 'Katherine', 'John',
  'Hedy', 'Tim', 'Sophie', 'Niklaus', 'Jean', 'Bjarne', 'Amara', 'Chidi', 'Ngozi', 'Kwame', 'Aiko', 'Haruto', 'Yuki', 'Mei', 'Wei',
  'Priya', 'Arjun', 'Ananya', 'Rohan', 'Fatima', 'Omar', 'Layla', 'Yusuf', 'Leila', 'Mateo', 'Valentina', 'Santiago', 'Camila',
  'Lucas', 'Isabella', 'Olga', 'Dmitri', 'Anastasia', 'Ivan', 'Ingrid', 'Lars', 'Astrid', 'Henrik', 'Giulia', 'Marco', 'Chiara',
  'Luca', 'Zofia', 'Jakub', 'Agnieszka', 'Tomasz', 'Eamon', 'Siobhan', 'Ciaran', 'Aoife', 'Thandiwe', 'Sipho', 'Zanele', 'Tariq',
  'Noor', 'Emre', 'Elif', 'Kerem', 'Ayse', 'Minh', 'Linh', 'Tuan', 'Hoa', 'Kofi', 'Abena', 'Nadia', 'Pedro', 'Ines', 'Joao', 'Beatriz',
];
export const FAMILY = [
  'Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Hamilton', 'Ritchie', 'Liskov', 'Thompson', 'Allen', 'Dijkstra', 'Perlman', 'Knuth',
  'Johnson', 'McCarthy', 'Lamarr', 'Berners', 'Wilson', 'Wirth', 'Sammet', 'Stroustrup', 'Kernighan', 'Backus', 'Hoare', 'Lamport',
  'Cerf', 'Okonkwo', 'Adeyemi', 'Mensah', 'Owusu', 'Tanaka', 'Sato', 'Nakamura', 'Kobayashi', 'Zhang', 'Wang', 'Chen', 'Huang',
  'Sharma', 'Patel', 'Gupta', 'Iyer', 'Haddad', 'Khalil', 'Mansour', 'Farouk', 'Garcia', 'Fernandez', 'Lopez', 'Martinez', 'Silva',
  'Santos', 'Oliveira', 'Pereira', 'Ivanova', 'Petrov', 'Sokolov', 'Volkov', 'Johansson', 'Lindqvist', 'Eriksson', 'Nilsson',
  'Rossi', 'Bianchi', 'Romano', 'Colombo', 'Kowalski', 'Nowak', 'Wisniewski', 'Wojcik', 'Murphy', 'Kelly', 'OBrien', 'Byrne',
  'Dlamini', 'Nkosi', 'Mokoena', 'Ndlovu', 'Yilmaz', 'Kaya', 'Demir', 'Sahin', 'Nguyen', 'Tran', 'Pham', 'Hoang', 'Boateng',
  'Asante', 'Rahman', 'Hossain', 'Costa', 'Rodrigues', 'Almeida', 'Moreau', 'Laurent', 'Lefebvre', 'Fischer', 'Weber', 'Schneider',
  'Becker', 'Hoffmann', 'Schulz', 'Koch', 'Richter', 'Klein', 'Wolf', 'Schroeder', 'Neumann', 'Schwarz', 'Zimmermann', 'Braun',
  'Hofmann', 'Hartmann', 'Lange', 'Schmitt', 'Werner', 'Krause', 'Meier', 'Lehmann', 'Schmid', 'Schulze', 'Maier', 'Kohler',
];
export const CASE_STATUSES = ['PENDING', 'INVITED', 'ACTIVE', 'IN_REVIEW', 'VERIFIED', 'REJECTED', 'ARCHIVED'] as const;
export const TASK_STATUSES = ['TODO', 'IN_PROGRESS', 'BLOCKED', 'DONE', 'CANCELLED'] as const;
export const PRIORITIES = ['LOW', 'MEDIUM', 'HIGH', 'URGENT'] as const;
export const NATIONALITIES = ['GB', 'DE', 'FR', 'US', 'NL', 'SE', 'IE', 'ES', 'NG', 'JP', 'IN', 'BR', 'TR', 'VN', 'ZA', 'PL'];

export interface SeedOptions {
  organizations: number;
  casesPerOrganization: number;
  tasksPerOrganization: number;
}

export interface SeededOrganization {
  id: string;
  key: string;
  /** A sample of the organization's case ids (for by-id requests). */
  caseIds: string[];
}

export interface SeedResult {
  organizations: SeededOrganization[];
  cases: number;
  tasks: number;
  seconds: number;
}

const sqlArray = (values: readonly string[]) => `ARRAY[${values.map((v) => `'${v}'`).join(',')}]`;

export async function seed(databaseUrl: string, options: SeedOptions): Promise<SeedResult> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const organizations: SeededOrganization[] = [];
    for (let o = 0; o < options.organizations; o++) {
      const id = randomUUID();
      const key = generateApiKey();
      await client.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [id, `bench-${o + 1}-${id.slice(0, 8)}`]);
      await client.query(
        'INSERT INTO api_keys (id, organization_id, label, prefix, hash, permissions) VALUES ($1, $2, $3, $4, $5, $6)',
        [randomUUID(), id, `bench ${o + 1}`, displayPrefix(key), hashApiKey(key), [...ALL_PERMISSIONS]],
      );
      // Cases: created over the last ~700 days (newest first is the list order), every status.
      await client.query(
        `INSERT INTO consumer_cases (id, organization_id, email, first_name, last_name, phone_number, date_of_birth, nationality, status, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid,
                lower(g.given || '.' || f.family || '.' || i || '@example.com'), g.given, f.family,
                '+4420' || lpad(i::text, 8, '0'),
                date '1950-01-01' + (i * 37 % 18250),
                (${sqlArray(NATIONALITIES)})[1 + i % ${NATIONALITIES.length}],
                ((${sqlArray(CASE_STATUSES)})[1 + i % ${CASE_STATUSES.length}])::"ConsumerCaseStatus",
                now() - make_interval(secs => i * 6.0 + $2::int),
                now() - make_interval(secs => i * 6.0 + $2::int)
           FROM generate_series(1, $3::int) AS i,
                LATERAL (SELECT (${sqlArray(GIVEN)})[1 + (i * 7 + $2::int) % ${GIVEN.length}] AS given) g,
                LATERAL (SELECT (${sqlArray(FAMILY)})[1 + (i * 13 + $2::int / 3) % ${FAMILY.length}] AS family) f`,
        [id, o, options.casesPerOrganization],
      );
      // Tasks: two per case on average, each about a case of the same organization.
      await client.query(
        `WITH cases AS (SELECT id, row_number() OVER (ORDER BY created_at) AS n, first_name, last_name FROM consumer_cases WHERE organization_id = $1::uuid)
         INSERT INTO tasks (id, organization_id, title, description, due_date, priority, status, completed_at, consumer_case_id, created_at, updated_at)
         SELECT gen_random_uuid(), $1::uuid,
                (ARRAY['Review','Verify','Escalate','Call back','Request documents for'])[1 + i % 5] || ' ' || c.first_name || ' ' || c.last_name,
                'Task ' || i || ' of the benchmark',
                now() + make_interval(days => (i % 60) - 30),
                ((${sqlArray(PRIORITIES)})[1 + i % ${PRIORITIES.length}])::"TaskPriority",
                ((${sqlArray(TASK_STATUSES)})[1 + (i / 4) % ${TASK_STATUSES.length}])::"TaskStatus",
                CASE WHEN (i / 4) % ${TASK_STATUSES.length} = 3 THEN now() ELSE NULL END,
                c.id,
                now() - make_interval(secs => i * 3.0 + $2::int),
                now() - make_interval(secs => i * 3.0 + $2::int)
           FROM generate_series(1, $3::int) AS i
           JOIN cases c ON c.n = 1 + (i * 7919) % $4::int`,
        [id, o, options.tasksPerOrganization, options.casesPerOrganization],
      );
      const sample = await client.query<{ id: string }>(
        'SELECT id FROM consumer_cases WHERE organization_id = $1 ORDER BY md5(id::text) LIMIT 500',
        [id],
      );
      organizations.push({ id, key, caseIds: sample.rows.map((r) => r.id) });
    }
    await client.query('ANALYZE');
    const [{ cases, tasks }] = (
      await client.query<{ cases: number; tasks: number }>(
        'SELECT (SELECT count(*) FROM consumer_cases)::int AS cases, (SELECT count(*) FROM tasks)::int AS tasks',
      )
    ).rows as [{ cases: number; tasks: number }];
    return { organizations, cases, tasks, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}
