import { quotaWindow } from './quota-period';

const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

describe('quotaWindow', () => {
  it('counts hours, days and calendar months in UTC', () => {
    const at = new Date('2026-02-14T13:45:10Z');
    expect(iso(quotaWindow(at, 'hour', 'UTC'))).toEqual([
      '2026-02-14T13:00:00.000Z',
      '2026-02-14T14:00:00.000Z',
    ]);
    expect(iso(quotaWindow(at, 'day', 'UTC'))).toEqual([
      '2026-02-14T00:00:00.000Z',
      '2026-02-15T00:00:00.000Z',
    ]);
    expect(iso(quotaWindow(at, 'month', 'UTC'))).toEqual([
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
  });

  it("counts in the tenant's zone: its own midnight, and a day of 23 hours across the spring change", () => {
    // 23:30 UTC on 31 January is already 1 February in Paris.
    expect(iso(quotaWindow(new Date('2026-01-31T23:30:00Z'), 'month', 'Europe/Paris'))).toEqual([
      '2026-01-31T23:00:00.000Z',
      '2026-02-28T23:00:00.000Z',
    ]);
    const day = quotaWindow(new Date('2026-03-29T12:00:00Z'), 'day', 'Europe/Paris');
    expect(iso(day)).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    // Half-hour zones have their hours at :30 UTC.
    expect(iso(quotaWindow(new Date('2026-02-14T13:45:10Z'), 'hour', 'Asia/Kolkata'))).toEqual([
      '2026-02-14T13:30:00.000Z',
      '2026-02-14T14:30:00.000Z',
    ]);
  });

  it('answers the window it kept while the time is in it, and the next one at its first instant', () => {
    const zone = 'America/Sao_Paulo';
    const first = quotaWindow(new Date('2026-05-10T12:00:00Z'), 'day', zone);
    const again = quotaWindow(new Date('2026-05-11T02:59:59.999Z'), 'day', zone);
    expect(iso(again)).toEqual(iso(first));
    // A caller changing its copy changes nothing kept.
    again.start.setTime(0);
    expect(iso(quotaWindow(new Date('2026-05-10T18:00:00Z'), 'day', zone))).toEqual(iso(first));
    expect(iso(quotaWindow(first.end, 'day', zone))).toEqual([
      '2026-05-11T03:00:00.000Z',
      '2026-05-12T03:00:00.000Z',
    ]);
    // An earlier time than the kept window is computed, not taken from it.
    expect(iso(quotaWindow(new Date('2026-05-09T12:00:00Z'), 'day', zone))).toEqual([
      '2026-05-09T03:00:00.000Z',
      '2026-05-10T03:00:00.000Z',
    ]);
  });
});
