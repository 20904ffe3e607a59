import { countries } from 'countries-list';

/**
 * The payment form's two country lists, from the maintained `countries-list`
 * package: each country's two-letter code with its English label, and with its
 * native label. Browser-safe.
 */
export interface CountryOption {
  code: string;
  label: string;
}

const entries = Object.entries(countries) as [string, { name: string; native: string }][];

export const COUNTRIES_ENGLISH: readonly CountryOption[] = entries
  .map(([code, country]) => ({ code, label: country.name }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'));

export const COUNTRIES_NATIVE: readonly CountryOption[] = entries.map(([code, country]) => ({
  code,
  label: country.native,
}));

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && value in countries;
}
