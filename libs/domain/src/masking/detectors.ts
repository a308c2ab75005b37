import { isIPv4, isIPv6 } from 'node:net';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import isCreditCard from 'validator/lib/isCreditCard';
import isEmail from 'validator/lib/isEmail';
import { CREDENTIAL_SHAPES, secretSpan } from './credential-shapes';

/** A part of a text that holds something to mask. */
export interface Span {
  entityType: string;
  start: number;
  end: number;
}

export interface DetectionOptions {
  /** ISO 3166 country for phone numbers written without `+` (default US). */
  region: string;
}

/** Finds one kind of entity in a text; confirms every candidate with its own rule. */
export interface Detector {
  entityType: string;
  find(text: string, options: DetectionOptions): Span[];
}

/** Candidates by pattern, kept when `accepts` confirms them (a checksum, a parser). */
function confirmed(entityType: string, pattern: RegExp, accepts: (candidate: string) => boolean): Detector {
  return {
    entityType,
    find: (text) =>
      [...text.matchAll(pattern)]
        .filter((match) => accepts(match[0]))
        .map((match) => ({ entityType, start: match.index, end: match.index + match[0].length })),
  };
}

/**
 * 7 to 15 digits (E.164's most), grouped by spaces, dots or dashes, maybe `+` and `(area)`; a run
 * of longer digit groups (a card number, an IBAN) is not cut into candidates.
 */
const PHONE_CANDIDATE =
  /(?<![\w+.-])(?:\+\d{1,3}[ .-]?|(?<!\d[ .-]))(?:\(\d{1,5}\)[ .-]?)?\d(?:[ .-]?\d){6,14}(?![\w-]|[ .-]\d)/g;

const digitsOf = (text: string) => text.replace(/[\s-]/g, '');

/** Well-known API key formats (AWS, GitHub, Slack, Stripe, Google), by their documented prefixes. */
const API_KEY =
  /\b(?:AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{36}|xox[abprs]-[A-Za-z0-9-]{10,}|[sr]k_(?:live|test)_[A-Za-z0-9]{16,}|AIza[\w-]{35})\b/g;

/**
 * The built-in detectors, in Presidio's entity names where Presidio has one. Each confirms its
 * candidates (a card number passes Luhn and a known issuer range, an IBAN its check digits, a phone
 * number libphonenumber's validity rules), so dates, order numbers and amounts stay as they are.
 */
export const BUILT_IN_DETECTORS: readonly Detector[] = [
  confirmed('EMAIL_ADDRESS', /[\w.%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, (candidate) => isEmail(candidate)),
  {
    entityType: 'PHONE_NUMBER',
    // Candidates by a cheap pattern (whole, not glued to letters or dashes: `INV-2024-000123`),
    // each confirmed by libphonenumber's validity rules: its own text scanner costs ~2 ms a KiB.
    find: (text, { region }) =>
      [...text.matchAll(PHONE_CANDIDATE)]
        .filter(
          (match) =>
            !isIPv4(match[0]) &&
            parsePhoneNumberFromString(match[0], region as CountryCode)?.isValid() === true,
        )
        .map((match) => ({
          entityType: 'PHONE_NUMBER',
          start: match.index,
          end: match.index + match[0].length,
        })),
  },
  confirmed('CREDIT_CARD', /\b\d(?:[ -]?\d){12,18}\b/g, (candidate) => isCreditCard(digitsOf(candidate))),
  confirmed('IBAN_CODE', /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g, (candidate) =>
    isValidIBAN(electronicFormatIBAN(candidate) ?? ''),
  ),
  confirmed('IP_ADDRESS', /\b(?:\d{1,3}\.){3}\d{1,3}\b/g, isIPv4),
  confirmed(
    'IP_ADDRESS',
    /(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?(?![\w:])/g,
    (c) => (c.includes('::') || c.split(':').length === 8 ? isIPv6(c) : false),
  ),
  confirmed('API_KEY', API_KEY, () => true),
  ...CREDENTIAL_SHAPES.map(({ entityType, pattern }): Detector => ({
    entityType,
    find: (text) => [...text.matchAll(pattern)].map((match) => ({ entityType, ...secretSpan(match) })),
  })),
];

export const BUILT_IN_ENTITY_TYPES = [...new Set(BUILT_IN_DETECTORS.map((d) => d.entityType))];

export const isRegion = (region: string): boolean => isSupportedCountry(region);
