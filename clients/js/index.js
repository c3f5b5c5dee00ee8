/**
 * bloomsketch: read, probe and build the bloomfilter, cmsketch and
 * topksketch values of the bloomsketch PostgreSQL extension.
 * @module
 */
export { BloomFilter } from './src/bloom.js';
export { CountMinSketch } from './src/cms.js';
export { TopKSketch } from './src/topk.js';
export {
  BloomSketchError, FormatError, ParameterError, MismatchError, UnsupportedError, TooLargeError,
} from './src/errors.js';
export { canonicalBytes, FAMILIES } from './src/families.js';
export { xxh3_64, xxh3_128 } from './src/xxh3.js';
