import { describe, expect, it } from 'vitest';
import { dayBounds, isTimeZone, timeZoneFromCookies } from './time-zone';

describe('dayBounds', () => {
  it('gives the next two local midnights in UTC', () => {
    const bounds = dayBounds(new Date('2026-11-26T23:59:59Z'), 'UTC');
    expect(bounds.tomorrow.toISOString()).toBe('2026-11-27T00:00:00.000Z');
    expect(bounds.dayAfter.toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });

  it("follows the member's zone: already tomorrow in Tokyo, still yesterday in Los Angeles", () => {
    const now = new Date('2026-11-26T20:00:00Z');
    // 05:00 on the 27th in Tokyo (UTC+9): tomorrow starts at midnight of the 28th, local.
    expect(dayBounds(now, 'Asia/Tokyo').tomorrow.toISOString()).toBe('2026-11-27T15:00:00.000Z');
    // 12:00 on the 26th in Los Angeles (UTC-8).
    expect(dayBounds(now, 'America/Los_Angeles').tomorrow.toISOString()).toBe(
      '2026-11-27T08:00:00.000Z',
    );
  });

  it('keeps local midnight across a daylight-saving change (a 23-hour day)', () => {
    // Europe/Berlin moves its clocks forward at 02:00 on 2026-03-29.
    const bounds = dayBounds(new Date('2026-03-28T12:00:00Z'), 'Europe/Berlin');
    expect(bounds.tomorrow.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(bounds.dayAfter.toISOString()).toBe('2026-03-29T22:00:00.000Z');
  });

  it('crosses the end of a month and a year', () => {
    const bounds = dayBounds(new Date('2026-12-31T10:00:00Z'), 'UTC');
    expect(bounds.tomorrow.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('the time zone cookie', () => {
  it('reads a known zone and falls back to UTC for anything else', () => {
    expect(timeZoneFromCookies('theme=dark; tz=Europe%2FParis')).toBe('Europe/Paris');
    expect(timeZoneFromCookies('tz=Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(timeZoneFromCookies('tz=Mars%2FOlympus')).toBe('UTC');
    expect(timeZoneFromCookies('tz=%E0%A4%A')).toBe('UTC');
    expect(timeZoneFromCookies('tz=<script>')).toBe('UTC');
    expect(timeZoneFromCookies(null)).toBe('UTC');
    expect(isTimeZone('x'.repeat(65))).toBe(false);
  });
});
