import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../lib/time.js';
import { loadSampleCountry, type SampleCountryStart } from '../../subgraphs/masterdata/import/sample-country.js';
import type { SampleCountryStore } from '../../subgraphs/masterdata/import/storage.js';

/*
 * When a start loads the sample country (import/sample-country.ts), over an
 * in-memory store: no database. The fake's lock runs one holder at a time,
 * as the database's advisory lock does across instances.
 */

const NOW = new Date('2026-05-01T10:00:00.000Z');

class MemorySampleCountry implements SampleCountryStore {
  readonly rows: [string, Record<string, unknown>][] = [];
  readonly locks: string[] = [];
  /** languages there before the start (deleted ones too) */
  constructor(public languages: string[] = []) {}
  private queue: Promise<unknown> = Promise.resolve();

  insert(model: Parameters<SampleCountryStore['insert']>[0], data: Record<string, unknown>) {
    if (model === 'language') this.languages.push(String(data.code));
    this.rows.push([model, data]);
    // One refusal, as a database would give for a row its key already holds.
    return Promise.resolve(model === 'device' ? 'a row with this key already exists' : null);
  }
  continueHolidayIds = () => Promise.resolve();
  analyze = () => Promise.resolve();
  languageCount() {
    return Promise.resolve(this.languages.length);
  }
  rowsOfLanguage(code: string) {
    return Promise.resolve(this.languages.filter((language) => language === code).length);
  }
  whileLocked<T>(key: string, work: () => Promise<T>): Promise<T> {
    this.locks.push(key);
    const run = this.queue.then(work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function start(sampleData: string, embedded = true) {
  const published: [string, unknown][] = [];
  const logged: [string, string][] = [];
  const options: SampleCountryStart = {
    sampleData,
    embedded,
    clock: new ManualClock(NOW),
    logger: { info: (message: string) => logged.push(['info', message]), warn: (message: string) => logged.push(['warn', message]) } as never,
    events: {
      publish: (name: string, payload: unknown) => {
        published.push([name, payload]);
        return Promise.resolve();
      },
    } as SampleCountryStart['events'],
  };
  return { options, published, logged };
}

describe('the sample country at start', () => {
  it('loads when asked, under its lock, once, and tells the other components', async () => {
    const store = new MemorySampleCountry();
    const { options, published, logged } = start('true', false);
    await loadSampleCountry(store, options);
    expect(store.locks).toEqual(['md_sample_country']);
    expect(store.languages.sort()).toEqual(['ara', 'eng', 'fra']);
    expect(store.rows.every(([, row]) => row.createdBy === 'sample-data' && (row.createdAt as Date).getTime() === NOW.getTime())).toBe(true);
    expect(published).toEqual([['sampleCountry.loaded', { by: 'sample-data', at: NOW }]]);
    expect(logged.filter(([level]) => level === 'info')[0]).toEqual(['info', 'sample country: 01-languages.json: 3 of 3 rows loaded']);
    expect(logged.filter(([level]) => level === 'warn')).toEqual([
      ['warn', 'sample country: 18-devices.csv line 2 rejected: a row with this key already exists'],
    ]);
    // A later start finds it there: no lock, no rows, no event.
    const again = start('true', false);
    await loadSampleCountry(store, again.options);
    expect(store.locks).toHaveLength(1);
    expect(again.published).toEqual([]);
  });

  it('loads with auto only on an embedded database that has never had a language', async () => {
    for (const [sampleData, embedded, languages, loads] of [
      ['auto', true, [], true],
      ['auto', false, [], false],
      ['auto', true, ['deu'], false],
      ['false', true, [], false],
      ['true', false, ['deu'], true],
    ] as const) {
      const store = new MemorySampleCountry([...languages]);
      const { options, published } = start(sampleData, embedded);
      await loadSampleCountry(store, options);
      expect(published.length, `${sampleData} ${embedded} ${languages.join()}`).toBe(loads ? 1 : 0);
    }
  });

  it('leaves the country alone when another start loaded it while this one waited for the lock', async () => {
    const store = new MemorySampleCountry();
    const first = start('true');
    const second = start('true');
    await Promise.all([loadSampleCountry(store, first.options), loadSampleCountry(store, second.options)]);
    expect(store.locks).toHaveLength(2);
    expect(store.rows.filter(([model]) => model === 'language')).toHaveLength(3);
    expect([...first.published, ...second.published]).toHaveLength(1);
  });
});
