/**
 * The numeric family's canonical text (docs/format.md section 1: PostgreSQL's
 * numeric_normalize) from decimal strings, bigints and numbers.
 * @module
 */
import { ParameterError } from './errors.js';

const DECIMAL = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;

/**
 * The normalized decimal of a numeric literal as numeric_in accepts it
 * ('1.50', '-0.0', '1e3', 'NaN', 'Infinity'): digits without exponent, no
 * leading or trailing zeros, '-' only for a nonzero negative.
 * @param {string} text
 * @returns {string}
 */
export function normalizeNumericText(text) {
  const special = text.trim().toLowerCase();
  if (special === 'nan') return 'NaN';
  if (special === 'infinity' || special === '+infinity' || special === 'inf' || special === '+inf') return 'Infinity';
  if (special === '-infinity' || special === '-inf') return '-Infinity';
  const m = DECIMAL.exec(text);
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === ''))) {
    throw new ParameterError(`invalid input syntax for type numeric: "${text}"`);
  }
  const digits = m[2] + (m[3] ?? '');
  let point = m[2].length + (m[4] ? Number(m[4]) : 0);
  let first = 0;
  while (first < digits.length && digits[first] === '0') first++;
  if (first === digits.length) return '0';
  let last = digits.length;
  while (digits[last - 1] === '0') last--;
  const significant = digits.slice(first, last);
  point -= first;
  let out;
  if (point <= 0) out = '0.' + '0'.repeat(-point) + significant;
  else if (point >= significant.length) out = significant + '0'.repeat(point - significant.length);
  else out = significant.slice(0, point) + '.' + significant.slice(point);
  return (m[1] === '-' ? '-' : '') + out;
}

/**
 * A double as PostgreSQL's float8-to-numeric cast spells it: 15 significant
 * digits (DBL_DIG), rounded half to even on the binary value, as
 * printf("%.15g") does (toPrecision would round a tie away from zero).
 * @param {number} x a finite number
 */
function doubleToNumericText(x) {
  const [mantissa, exponent] = Math.abs(x).toExponential(99).split('e');
  const digits = mantissa.replace('.', '');
  let head = BigInt(digits.slice(0, 15));
  let scale = Number(exponent);
  const rest = digits.slice(15);
  const tie = /^50*$/.test(rest);
  if (rest[0] > '5' || (rest[0] === '5' && !tie) || (tie && head % 2n === 1n)) head += 1n;
  let text = head.toString();
  if (text.length > 15) {
    text = text.slice(0, 15);
    scale += 1;
  }
  return normalizeNumericText((x < 0 ? '-' : '') + text[0] + '.' + text.slice(1) + 'e' + scale);
}

/**
 * The canonical text of a JavaScript value for the numeric family: a decimal
 * string, a bigint or a safe integer exactly (as int8::numeric), any other
 * finite number as float8::numeric, NaN and the infinities by name.
 * @param {unknown} value
 * @returns {string}
 */
export function numericText(value) {
  if (typeof value === 'string') return normalizeNumericText(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (value === Infinity) return 'Infinity';
    if (value === -Infinity) return '-Infinity';
    if (Number.isSafeInteger(value)) return String(value === 0 ? 0 : value);
    return doubleToNumericText(value);
  }
  throw new ParameterError(`a numeric filter takes strings, bigints or numbers, not ${describe(value)}`);
}

/** @param {unknown} value */
export function describe(value) {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return 'a Uint8Array';
  if (value instanceof Date) return 'a Date';
  return `a ${typeof value}`;
}
