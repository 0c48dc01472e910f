// The holiday search benchmark's data: rows written straight into PostgreSQL, ten a day, so
// that a search of a week or of a name matches as many rows at 1,000 rows as at 100,000, and
// only the table grows. Ten rows are named "Harvest Festival <n>"; the rest "Day <md5>".
import pg from 'pg';

// Long past: 100,000 rows at 10 a day span 27 years, which from 2000 reached the slot benchmark's days (its centre
// shares the location) and closed them.
const BASE_DATE = '1950-01-01';

/** Adds holidays numbered from..to (inclusive) at location BENCH, then ANALYZE. */
export async function seedHolidays(url: string, from: number, to: number): Promise<void> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO md_location (code, "langCode", name, "hierarchyLevel", "hierarchyName", "createdBy", "createdAt", "changedAt")
       VALUES ('BENCH', 'eng', 'Bench City', 0, 'Country', 'bench', now(), now()) ON CONFLICT DO NOTHING`,
    );
    await db.query(
      `INSERT INTO md_holiday (id, "langCode", "locationCode", "holidayDate", "holidayName", "holidayDesc", "createdBy", "createdAt", "updatedAt", "changedAt")
       SELECT i, 'eng', 'BENCH', DATE '${BASE_DATE}' + ((i - 1) / 10), CASE WHEN i <= 10 THEN 'Harvest Festival ' || i ELSE 'Day ' || md5(i::text) END,
              'benchmark row', 'bench', now() - make_interval(secs => i), now() - make_interval(secs => i), now()
       FROM generate_series($1::int, $2::int) AS i`,
      [from, to],
    );
    await db.query(`SELECT setval(pg_get_serial_sequence('md_holiday', 'id'), $1)`, [to]);
    // What autovacuum does after a bulk load: statistics, and the trigram index's pending entries merged.
    await db.query('VACUUM ANALYZE md_holiday');
  } finally {
    await db.end();
  }
}

/** Document 2's search bodies: a name part (a trigram index), and a week of dates sorted by name. */
export const holidaySearches = {
  'holiday search: name contains': {
    filters: [{ columnName: 'holidayName', type: 'contains', value: 'harvest' }],
    sort: [{ sortfield: 'holidayDate', sorttype: 'ASC' }],
    pagination: { pageStart: 0, pageFetch: 10 },
    languageCode: 'eng',
  },
  'holiday search: a week, between': {
    filters: [{ columnName: 'holidayDate', type: 'between', fromValue: '1950-01-20', toValue: '1950-01-26' }],
    sort: [{ sortfield: 'holidayName', sorttype: 'ASC' }],
    pagination: { pageStart: 1, pageFetch: 10 },
    languageCode: 'eng',
  },
};
