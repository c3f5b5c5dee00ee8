/**
 * The values of docs/vectors/values.tsv as JavaScript values, and the parser
 * of the vector files' text: no Node.js API, so that the browser check
 * (test/browser) uses them as the Node.js tests do.
 */

/** Rows of the text of a tab-separated file with a header line, as objects. */
export function parseTsv(text, { header = true } = {}) {
  const lines = text.split('\n').filter((l) => l !== '');
  if (!header) return lines.map((l) => l.split('\t'));
  const names = lines[0].split('\t');
  return lines.slice(1).map((l) => Object.fromEntries(l.split('\t').map((v, i) => [names[i], v])));
}

const FAMILY_OF_TYPE = {
  int2: 'integer', int4: 'integer', int8: 'integer', text: 'text', varchar: 'text', bpchar: 'text',
  name: 'text', char: 'text', bytea: 'bytea', uuid: 'uuid', numeric: 'numeric', float4: 'float',
  float8: 'float', bool: 'bool', date: 'date', timestamp: 'timestamp', timestamptz: 'timestamptz',
};

/** A Date at midnight UTC of 'YYYY-MM-DD' with astronomical years. */
export function utcDay(text) {
  const m = /^(-?\d{4,})-(\d{2})-(\d{2})$/.exec(text);
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return d;
}

/** A Date of 'YYYY-MM-DD HH:MM:SS[.fff][+HH[:MM]]' (UTC when no offset). */
function instant(text) {
  const m = /^(\S+) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?([+-]\d{2})?(?::?(\d{2}))?$/.exec(text);
  const day = utcDay(m[1]).getTime();
  const offset = m[6] ? (Number(m[6]) * 60 + Math.sign(Number(m[6] + '1')) * Number(m[7] ?? 0)) * 60000 : 0;
  return new Date(day + ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4])) * 1000 +
    Number((m[5] ?? '').padEnd(3, '0')) - offset);
}

/**
 * [family, value] of a values.tsv row of a scalar family, as an application
 * would hold it; null for the family other.
 */
export function jsValue(row) {
  const family = FAMILY_OF_TYPE[row.type];
  if (!family) return null;
  const raw = row.value;
  const json = () => JSON.parse(raw);
  switch (row.type) {
    case 'int2': case 'int4': case 'int8': return [family, BigInt(raw)];
    case 'bpchar': return [family, json().replace(/ +$/, '')];
    case 'name': return [family, json().split('\0')[0]];
    case 'bytea': return [family, Uint8Array.from(json().match(/../g) ?? [], (h) => parseInt(h, 16))];
    case 'float4': case 'float8': {
      const v = json();
      const n = typeof v === 'number' ? v : v === '-0' ? -0 : Number(v);
      return [family, row.type === 'float4' ? Math.fround(n) : n];
    }
    case 'date': return [family, raw === '"infinity"' ? Infinity : raw === '"-infinity"' ? -Infinity : utcDay(json())];
    case 'timestamp': case 'timestamptz': return [family, instant(json())];
    default: return [family, json()];
  }
}

