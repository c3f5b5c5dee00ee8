/**
 * The readers of the vector files for the Node.js tests (the values
 * themselves: vector_parse.mjs).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseTsv } from './vector_parse.mjs';

export { jsValue, utcDay } from './vector_parse.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** docs/vectors of the repository (BS_VECTORS overrides, for copies of the tests). */
export const VECTORS = process.env.BS_VECTORS ?? path.resolve(here, '../../../docs/vectors');
export const REPO_TEST = process.env.BS_REPO_TEST ?? path.resolve(here, '../../../test/data');

/** Rows of a tab-separated file with a header line, as objects. */
export function readTsv(file, options = {}) {
  return parseTsv(readFileSync(file, 'utf8'), options);
}

/** values.tsv by id. */
export function valuesById() {
  return new Map(readTsv(path.join(VECTORS, 'values.tsv')).map((r) => [r.id, r]));
}
