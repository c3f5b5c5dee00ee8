/**
 * Values of every supported family for the server tests: each a JavaScript
 * value, as an application holds it, and the SQL that gives the same value
 * from text (kind, src), so that the server hashes its own reading of the
 * value and the library the JavaScript one.
 */

/** A seeded 32-bit generator (mulberry32). @param {number} seed */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHARS = ['a', 'b', 'z', 'A', '0', ' ', '-', '\\', '\t', '\n', "'", 'é', 'ß', 'ж', '中', '日', '€', '😀', '𝄞', 'ﬀ'];

/** A length spread over XXH3's input classes (0-3, 4-8, 9-16, 17-128, 129-240, longer). */
function length(r) {
  const classes = [3, 8, 16, 128, 240, 400];
  return Math.floor(r() * (classes[Math.floor(r() * classes.length)] + 1));
}

function bigint64(r) {
  return BigInt.asIntN(64, (BigInt(Math.floor(r() * 2 ** 32)) << 32n) | BigInt(Math.floor(r() * 2 ** 32)));
}

/** ISO text of a Date for timestamp (no zone) or timestamptz (Z). */
function iso(date, zone) {
  const s = date.toISOString();
  return zone ? s : s.slice(0, -1);
}

/**
 * The generators: family -> { expr: SQL of the typed value from (kind, src), make(r, i) -> [js, kind, src] }.
 * Values of index i < 8 are the family's corner cases.
 */
export const FAMILY_VALUES = {
  integer: {
    expr: 'src::int8',
    make(r, i) {
      const corners = [0n, 1n, -1n, 9223372036854775807n, -9223372036854775808n, 2406930871n, 3836073524n, 256982491n];
      if (i < corners.length) return [corners[i], 'i', String(corners[i])];
      if (i % 3 === 0) {
        const n = Math.floor((r() - 0.5) * 2 ** 40);
        return [n, 'i', String(n)];
      }
      const v = bigint64(r);
      return [v, 'i', String(v)];
    },
  },
  text: {
    expr: 'src',
    make(r, i) {
      if (i === 0) return ['', 't', ''];
      let s = '';
      const n = length(r);
      while (s.length < n) s += CHARS[Math.floor(r() * CHARS.length)];
      return [s, 't', s];
    },
  },
  bytea: {
    expr: "decode(src, 'hex')",
    make(r) {
      const b = Uint8Array.from({ length: length(r) }, () => Math.floor(r() * 256));
      return [b, 'b', Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')];
    },
  },
  uuid: {
    expr: 'src::uuid',
    make(r, i) {
      const h = Array.from({ length: 32 }, () => Math.floor(r() * 16).toString(16)).join('');
      const forms = [
        `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`,
        h.toUpperCase(), `{${h}}`,
      ];
      const s = forms[i % 3];
      return [s, 'u', s];
    },
  },
  numeric: {
    expr: "CASE kind WHEN 's' THEN src::numeric WHEN 'f' THEN src::float8::numeric ELSE src::int8::numeric END",
    make(r, i) {
      const corners = ['NaN', 'Infinity', '-Infinity', '0.000', '-0.0500', '1e20', '1.50', '.5'];
      if (i < corners.length) return [corners[i], 's', corners[i]];
      switch (i % 4) {
        case 0: {
          const digits = String(Math.floor(r() * 1e9)).padStart(3, '0');
          const point = Math.floor(r() * digits.length);
          const s = (r() < 0.5 ? '-' : '') + digits.slice(0, point) + '.' + digits.slice(point) + '0'.repeat(Math.floor(r() * 3));
          return [s.replace(/^(-?)\./, '$10.'), 's', s.replace(/^(-?)\./, '$10.')];
        }
        case 1: {
          // a safe integer number is hashed exactly, as int8::numeric; others as float8::numeric
          const x = (r() - 0.5) * 10 ** Math.floor(r() * 30 - 10);
          return [x, Number.isSafeInteger(x) ? 'i' : 'f', String(x)];
        }
        case 2: {
          const v = bigint64(r);
          return [v, 'i', String(v)];
        }
        default: {
          const n = Math.floor((r() - 0.5) * 1e6);
          return [n, 'i', String(n)];
        }
      }
    },
  },
  float: {
    expr: "CASE kind WHEN '4' THEN src::float4::float8 ELSE src::float8 END",
    make(r, i) {
      const corners = [NaN, Infinity, -Infinity, -0, 0, 5e-324, Number.MAX_VALUE, 0.1];
      if (i < corners.length) {
        const v = corners[i];
        return [v, '8', Object.is(v, -0) ? '-0' : String(v)];
      }
      const view = new DataView(new ArrayBuffer(8));
      view.setUint32(0, Math.floor(r() * 2 ** 32));
      view.setUint32(4, Math.floor(r() * 2 ** 32));
      let x = view.getFloat64(0);
      if (Number.isNaN(x)) x = r();
      if (i % 3 === 0) {
        const f = Math.fround((r() - 0.5) * 1e6);
        return [f, '4', String(f)];
      }
      return [x, '8', String(x)];
    },
  },
  bool: {
    expr: 'src::bool',
    make(r) {
      const b = r() < 0.5;
      return [b, 'b', b ? 't' : 'f'];
    },
  },
  date: {
    expr: "CASE kind WHEN 'd' THEN date '2000-01-01' + src::int ELSE src::date END",
    make(r, i) {
      const corners = [[Infinity, 'infinity'], [-Infinity, '-infinity']];
      if (i < corners.length) return [corners[i][0], 'x', corners[i][1]];
      const corner = [-2451545, -730120, -152394, 0, -1, 2932896];
      const days = i < 8 ? corner[i - 2] : Math.floor((r() - 0.5) * 2 * 2400000);
      return [new Date(Date.UTC(2000, 0, 1) + days * 86400000), 'd', String(days)];
    },
  },
  timestamp: {
    expr: "src::timestamp",
    make(r, i) {
      if (i === 0) return [Infinity, 'x', 'infinity'];
      if (i === 1) return [-Infinity, 'x', '-infinity'];
      // years 1 to 9999 AD, millisecond precision
      const ms = Math.floor(-62135596800000 + r() * (253402300799999 + 62135596800000));
      const d = new Date(ms);
      return [d, 't', iso(d, false)];
    },
  },
  timestamptz: {
    expr: "src::timestamptz",
    make(r, i) {
      if (i === 0) return [Infinity, 'x', 'infinity'];
      if (i === 1) return [-Infinity, 'x', '-infinity'];
      const ms = Math.floor(-62135596800000 + r() * (253402300799999 + 62135596800000));
      const d = new Date(ms);
      return [d, 't', iso(d, true)];
    },
  },
};

export const FAMILY_NAMES = Object.keys(FAMILY_VALUES);

/** n values of a family: [[js, kind, src], ...], the same for a seed. */
export function makeValues(family, n, seed) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < n; i++) out.push(FAMILY_VALUES[family].make(r, i));
  return out;
}
