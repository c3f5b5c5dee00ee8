/**
 * The server side of the tests: psql (PG_BIN/psql, or psql on PATH) on
 * PGHOST/PGPORT/PGUSER from the environment, with values passed through
 * COPY and answers read as unaligned text.  No npm PostgreSQL driver.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const PSQL = process.env.PG_BIN ? path.join(process.env.PG_BIN, 'psql') : 'psql';

/** Whether the server tests were asked for; then an unreachable server fails them. */
export const SERVER_ASKED = process.env.BLOOMSKETCH_SERVER_TESTS === '1';
export const SKIP = SERVER_ASKED ? false : 'server tests not asked for (set BLOOMSKETCH_SERVER_TESTS=1 and PGHOST/PGPORT)';

/**
 * Run SQL (a whole script, COPY data included) and return its output rows
 * as arrays of fields (unaligned, tab-separated).
 * @param {string} db @param {string} script
 * @returns {string[][]}
 */
export function sql(db, script) {
  const run = spawnSync(PSQL, ['-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-d', db], {
    input: script, encoding: 'utf8', maxBuffer: 1 << 30,
    env: { ...process.env, PGTZ: 'America/New_York', PGDATESTYLE: 'ISO, YMD', PGOPTIONS: '-c extra_float_digits=1' },
  });
  if (run.error && !(run.error.code === 'EPIPE' && run.status)) throw run.error;
  if (run.status !== 0) throw new Error(`psql failed (${run.status}): ${run.stderr.slice(0, 2000)}`);
  return run.stdout.split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
}

/** A fresh database with the extension. @param {string} db */
export function freshDatabase(db) {
  sql('postgres', `DROP DATABASE IF EXISTS ${db};\nCREATE DATABASE ${db} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C';\n`);
  sql(db, 'CREATE EXTENSION bloomsketch;\n');
}

/** @param {string} db */
export function dropDatabase(db) {
  sql('postgres', `DROP DATABASE IF EXISTS ${db};\n`);
}

/** A field for COPY's text format. @param {string | null} s */
export function copyField(s) {
  if (s === null) return '\\N';
  return s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

/** COPY rows into a table. @param {string} table @param {(string | null)[][]} rows */
export function copyIn(table, rows) {
  return `COPY ${table} FROM stdin;\n${rows.map((r) => r.map(copyField).join('\t')).join('\n')}\n\\.\n`;
}

/** @param {string} hex */
export function unhex(hex) {
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** @param {Uint8Array} b */
export function hex(b) {
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}
