/**
 * An instant (epoch ms) as `Date.prototype.toISOString` writes it, by arithmetic: a file's comments
 * are 30 timestamps per answer, and a Date object and its formatting cost more than a microsecond
 * each. Instants outside 1970-9999 (never a stored row's) go to toISOString itself.
 */
import { DAY_MS } from '../clock.ts';
/** 10000-01-01T00:00:00.000Z. */
const END_OF_FOUR_DIGIT_YEARS = 253_402_300_800_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= END_OF_FOUR_DIGIT_YEARS) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  const msOfDay = ms - days * DAY_MS;
  // Days since 1970-01-01 to a proleptic Gregorian date (H. Hinnant's civil_from_days), eras of 400 years from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(msOfDay / 3_600_000);
  const minutes = Math.floor(msOfDay / 60_000) % 60;
  const seconds = Math.floor(msOfDay / 1000) % 60;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(msOfDay % 1000)}Z`;
}
