// ClickHouse's RowBinary format, written and read value by value: each value in its column's
// binary form, no names, no separators. The engine reads it with no parsing at all; a batch of
// answers that cost it 22-29 µs of CPU an answer as JSONCompactEachRow cost 11-14 µs as RowBinary,
// views and parts included (commit 28a2660).
// Only the types our tables use: UInt8/16/32, Int8, Float64, String, UUID, Date, DateTime64(3),
// Array(T) (a count, then the elements) and Tuple(...) (its fields in order).

const DAY_MS = 86_400_000;
const TWO_32 = 2 ** 32;

/** Bytes appended to one growing buffer; byte ranges can be cut out before the bytes are taken. */
export class ByteWriter {
  protected buf: Buffer;
  protected at = 0;

  /** `capacity`: the bytes expected, so that a writer sized right never grows (and copies). */
  constructor(capacity = 1 << 16) {
    this.buf = Buffer.allocUnsafeSlow(capacity); // never from the shared pool: it may be transferred
  }

  /** Makes room for n more bytes. */
  protected room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  /** Bytes written so far: where the next value starts. */
  get size(): number {
    return this.at;
  }

  /**
   * The bytes written so far (a view of the writer's own memory), less the byte ranges dropped
   * ([start, end), in the order written), which are cut out in place.
   */
  bytes(dropped: readonly (readonly [number, number])[] = []): Uint8Array {
    const cuts = dropped.filter(([start, end]) => end > start).sort((a, b) => a[0] - b[0]);
    if (cuts.length) {
      let to = cuts[0][0];
      cuts.forEach(([, end], i) => {
        const next = i + 1 < cuts.length ? cuts[i + 1][0] : this.at;
        to += this.buf.copy(this.buf, to, end, next);
      });
      this.at = to;
    }
    return this.buf.subarray(0, this.at);
  }
}

// Hex digit -> its value, -1 for anything else.
const HEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) {
  HEX['0123456789abcdef'.charCodeAt(i)] = i;
  HEX['0123456789ABCDEF'.charCodeAt(i)] = i;
}
// Where each of a UUID's 16 bytes is written in its text (8-4-4-4-12 hex digits).
const UUID_TEXT_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
// ClickHouse keeps a UUID as two 64-bit halves, each little-endian: the text's byte k goes to
// UUID_BINARY_AT[k].
const UUID_BINARY_AT = UUID_TEXT_AT.map((_, k) => (k < 8 ? 7 - k : 23 - k));

const hexByte = (s: string, at: number): number => {
  const hi = HEX[s.charCodeAt(at)] ?? -1;
  const lo = HEX[s.charCodeAt(at + 1)] ?? -1;
  if (hi < 0 || lo < 0) throw new Error(`not a UUID: ${JSON.stringify(s)}`);
  return (hi << 4) | lo;
};

export class RowBinaryWriter extends ByteWriter {
  uint8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v;
  }

  int8(v: number): void {
    this.room(1);
    this.buf[this.at++] = v & 0xff;
  }

  uint16(v: number): void {
    this.room(2);
    this.buf[this.at] = v & 0xff;
    this.buf[this.at + 1] = (v >>> 8) & 0xff;
    this.at += 2;
  }

  uint32(v: number): void {
    this.room(4);
    this.buf.writeUInt32LE(v >>> 0, this.at);
    this.at += 4;
  }

  float64(v: number): void {
    this.room(8);
    this.buf.writeDoubleLE(v, this.at);
    this.at += 8;
  }

  /** A signed 64-bit integer given as a safe JavaScript integer. */
  int64(v: number): void {
    const hi = Math.floor(v / TWO_32);
    this.room(8);
    this.buf.writeUInt32LE(v - hi * TWO_32, this.at);
    this.buf.writeInt32LE(hi, this.at + 4);
    this.at += 8;
  }

  /** An unsigned LEB128 integer: a String's length, an Array's count. */
  varUInt(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.buf[this.at++] = (v & 0x7f) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.at++] = v;
  }

  /** A String: its UTF-8 length, then its UTF-8 bytes. */
  string(s: string): void {
    const len = s.length;
    // Most strings of a row are short and ASCII (ids, platforms, domains, URLs, titles): copied
    // unit by unit here, they skip Buffer.write's call into C++, which cost more than the copy.
    // Under 128 units, an ASCII string's length is one byte.
    if (len < 128) {
      this.room(1 + len * 3);
      const buf = this.buf;
      const start = this.at + 1;
      let i = 0;
      for (; i < len; i++) {
        const c = s.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + i] = c;
      }
      if (i === len) {
        buf[this.at] = len;
        this.at = start + len;
        return;
      }
    }
    // Up to 42 UTF-16 units take at most 126 bytes, whose length is one byte: the text is written
    // first and its length set after, so short strings are not measured first.
    if (len <= 42) {
      this.room(1 + len * 3);
      const n = this.buf.write(s, this.at + 1, 'utf8');
      this.buf[this.at] = n;
      this.at += 1 + n;
      return;
    }
    const n = Buffer.byteLength(s, 'utf8');
    this.varUInt(n);
    this.room(n);
    this.at += this.buf.write(s, this.at, n, 'utf8');
  }

  /** A UUID from its text (8-4-4-4-12 hex digits, either case). */
  uuid(s: string): void {
    if (s.length !== 36) throw new Error(`not a UUID: ${JSON.stringify(s)}`);
    this.room(16);
    for (let k = 0; k < 16; k++) this.buf[this.at + UUID_BINARY_AT[k]] = hexByte(s, UUID_TEXT_AT[k]);
    this.at += 16;
  }

  /** A DateTime64(3) from epoch milliseconds. */
  dateTime64ms(ms: number): void {
    this.int64(ms);
  }

  /** A Date from epoch milliseconds (its UTC day). */
  date(ms: number): void {
    this.uint16(Math.floor(ms / DAY_MS));
  }
}

const HEX_DIGITS = '0123456789abcdef';

/** Reads back what RowBinaryWriter wrote, value by value (tests, and rows compared on re-import). */
export class RowBinaryReader {
  private at = 0;
  private readonly buf: Buffer;

  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Whether every byte has been read. */
  get done(): boolean {
    return this.at >= this.buf.length;
  }

  private take(n: number): number {
    if (this.at + n > this.buf.length) throw new Error('RowBinary: the bytes end inside a value');
    const at = this.at;
    this.at += n;
    return at;
  }

  uint8(): number {
    return this.buf[this.take(1)];
  }

  int8(): number {
    return this.buf.readInt8(this.take(1));
  }

  uint16(): number {
    return this.buf.readUInt16LE(this.take(2));
  }

  uint32(): number {
    return this.buf.readUInt32LE(this.take(4));
  }

  float64(): number {
    return this.buf.readDoubleLE(this.take(8));
  }

  int64(): number {
    const at = this.take(8);
    return this.buf.readInt32LE(at + 4) * TWO_32 + this.buf.readUInt32LE(at);
  }

  varUInt(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.uint8();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }

  string(): string {
    const n = this.varUInt();
    const at = this.take(n);
    return this.buf.toString('utf8', at, at + n);
  }

  /** A UUID's text, lower case. */
  uuid(): string {
    const at = this.take(16);
    let s = '';
    for (let k = 0; k < 16; k++) {
      if (k === 4 || k === 6 || k === 8 || k === 10) s += '-';
      const b = this.buf[at + UUID_BINARY_AT[k]];
      s += HEX_DIGITS[b >> 4] + HEX_DIGITS[b & 15];
    }
    return s;
  }

  /** A DateTime64(3) as epoch milliseconds. */
  dateTime64ms(): number {
    return this.int64();
  }

  /** A Date as the epoch milliseconds of its UTC midnight. */
  date(): number {
    return this.uint16() * DAY_MS;
  }
}

/** A column of a RowBinary insert: its name and its ClickHouse type, in the order values are written. */
export type BinaryColumn = readonly [name: string, type: string];

/** A value's RowBinary form: a scalar type, or an array of tuples whose fields are named here. */
export type BinaryType =
  | 'UUID'
  | 'String'
  | 'Array(String)'
  | 'Array(UUID)'
  | 'UInt8'
  | 'UInt16'
  | 'UInt32'
  | 'Int8'
  | 'Float64'
  | 'Date'
  | "DateTime64(3, 'UTC')"
  | { readonly tuples: BinaryFields };
export type BinaryFields = readonly (readonly [name: string, type: BinaryType])[];

/** The ClickHouse name of a type: `Array(Tuple(...))` for tuples (unnamed, in field order). */
export const typeName = (t: BinaryType): string =>
  typeof t === 'string' ? t : `Array(Tuple(${t.tuples.map(([, f]) => typeName(f)).join(', ')}))`;

type Put = (w: RowBinaryWriter, v: never) => void;
type Get = (r: RowBinaryReader) => unknown;
// Dates and times are epoch milliseconds both ways.
const SCALARS: Record<Exclude<BinaryType, object>, { put: Put; get: Get }> = {
  UUID: { put: (w, v: string) => w.uuid(v), get: (r) => r.uuid() },
  String: { put: (w, v: string) => w.string(v), get: (r) => r.string() },
  'Array(String)': {
    put: (w, v: readonly string[]) => {
      w.varUInt(v.length);
      for (const s of v) w.string(s);
    },
    get: (r) => Array.from({ length: r.varUInt() }, () => r.string()),
  },
  'Array(UUID)': {
    put: (w, v: readonly string[]) => {
      w.varUInt(v.length);
      for (const s of v) w.uuid(s);
    },
    get: (r) => Array.from({ length: r.varUInt() }, () => r.uuid()),
  },
  UInt8: { put: (w, v: number) => w.uint8(v), get: (r) => r.uint8() },
  UInt16: { put: (w, v: number) => w.uint16(v), get: (r) => r.uint16() },
  UInt32: { put: (w, v: number) => w.uint32(v), get: (r) => r.uint32() },
  Int8: { put: (w, v: number) => w.int8(v), get: (r) => r.int8() },
  Float64: { put: (w, v: number) => w.float64(v), get: (r) => r.float64() },
  Date: { put: (w, v: number) => w.date(v), get: (r) => r.date() },
  "DateTime64(3, 'UTC')": { put: (w, v: number) => w.dateTime64ms(v), get: (r) => r.dateTime64ms() },
};

/** Writes and reads records whose fields are named by a list of columns, in that list's order. */
export interface RecordCodec<R> {
  /** The columns, as an insert names them. */
  readonly columns: readonly BinaryColumn[];
  write(w: RowBinaryWriter, record: R): void;
  read(r: RowBinaryReader): R;
}

/** The codec of records with these fields; an array of tuples is an array of records of its fields. */
export function recordCodec<R extends object>(fields: BinaryFields): RecordCodec<R> {
  const parts = fields.map(([name, type]): { name: string; put: Put; get: Get } => {
    if (typeof type === 'string') return { name, ...SCALARS[type] };
    const inner = recordCodec<object>(type.tuples);
    return {
      name,
      put: (w, list: readonly object[]) => {
        w.varUInt(list.length);
        for (const item of list) inner.write(w, item);
      },
      get: (r) => Array.from({ length: r.varUInt() }, () => inner.read(r)),
    };
  });
  return {
    columns: fields.map(([name, type]) => [name, typeName(type)] as const),
    write(w, record) {
      const values = record as Record<string, never>;
      for (const { name, put } of parts) put(w, values[name]);
    },
    read(r) {
      const record: Record<string, unknown> = {};
      for (const { name, get } of parts) record[name] = get(r);
      return record as R;
    },
  };
}
