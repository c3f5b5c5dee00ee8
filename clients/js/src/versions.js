/**
 * Format versions (docs/format.md section 8).  The library hashes text as
 * UTF-8, as version 2 does and as version 1 did in UTF-8 and SQL_ASCII
 * databases, so it reads version 1 values as coming from such a database;
 * version 1 values of family other are not probed here at all.
 * @module
 */
import { MismatchError, UnsupportedError } from './errors.js';

const OTHER = 11;

/** Refuse probing a version 1 value whose hashing this library cannot redo. */
export function checkProbeVersion(version, family, type) {
  if (version === 1 && family === OTHER) {
    throw new UnsupportedError(`a version 1 ${type} of family other hashed the binary send form; rebuild it in SQL`);
  }
}

/**
 * The version of a combination of two values, or an error: the side with
 * values, or the newer one when both or neither hold values.
 * @param {{ version: number, family: number }} a
 * @param {{ version: number, family: number }} b
 * @param {string} type
 */
export function combineVersions(a, b, type) {
  if (a.version === b.version) return a.version;
  for (const side of [a, b]) {
    if (side.version === 1 && side.family === OTHER) {
      throw new MismatchError(`a version 1 ${type} of family other does not combine with a version 2 one`);
    }
  }
  if (a.family && !b.family) return a.version;
  if (b.family && !a.family) return b.version;
  return Math.max(a.version, b.version);
}
