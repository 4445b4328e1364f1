/**
 * The protobuf wire format, as much of it as etcd's messages need: varints (non-negative, up to
 * 2^53, which every revision, count and limit is), length-delimited fields (bytes, strings,
 * nested messages) and skipping what a reader does not want. See etcd-wire.ts for the messages.
 */

/** Wire types. */
export const VARINT = 0;
export const FIXED64 = 1;
export const LENGTH_DELIMITED = 2;
export const FIXED32 = 5;

const TWO_32 = 2 ** 32;

/** Writes a message into one growing buffer; nested messages are `fork`ed and `close`d. */
export class ProtoWriter {
  #buffer: Buffer;
  #pos = 0;
  /** Where each open nested message's body starts, and its field number. */
  readonly #open: { start: number; field: number }[] = [];

  constructor(capacity = 256) {
    this.#buffer = Buffer.allocUnsafe(capacity);
  }

  /** A non-negative integer field (int64, uint64, enum), left out when 0 (proto3's default). */
  uint(field: number, value: number | string | undefined): this {
    const n = typeof value === 'string' ? Number(value) : (value ?? 0);
    if (n === 0) return this;
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a wire integer: ${value}`);
    this.#tag(field, VARINT);
    this.#varint(n);
    return this;
  }

  /** An integer field written even when 0: a member of a oneof, whose presence is meaningful. */
  uintPresent(field: number, value: number | string): this {
    const n = typeof value === 'string' ? Number(value) : value;
    if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a wire integer: ${value}`);
    this.#tag(field, VARINT);
    this.#varint(n);
    return this;
  }

  /** A bytes field written even when empty (a member of a oneof). */
  bytesPresent(field: number, value: Uint8Array): this {
    this.#tag(field, LENGTH_DELIMITED);
    this.#varint(value.length);
    this.#reserve(value.length);
    this.#buffer.set(value, this.#pos);
    this.#pos += value.length;
    return this;
  }

  /** A bool field, left out when false. */
  bool(field: number, value: boolean | undefined): this {
    if (value !== true) return this;
    this.#tag(field, VARINT);
    this.#reserve(1);
    this.#buffer[this.#pos++] = 1;
    return this;
  }

  /** A bytes field, left out when absent or empty. */
  bytes(field: number, value: Uint8Array | undefined): this {
    if (value === undefined || value.length === 0) return this;
    return this.bytesPresent(field, value);
  }

  /** Starts a nested message in `field` (always written, even empty); end it with `close`. */
  fork(field: number): this {
    this.#open.push({ start: this.#pos, field });
    return this;
  }

  /** Ends the nested message last `fork`ed: its tag and length go before its body. */
  close(): this {
    const open = this.#open.pop();
    if (open === undefined) throw new Error('close without fork');
    const length = this.#pos - open.start;
    const header = varintSize(tagOf(open.field, LENGTH_DELIMITED)) + varintSize(length);
    this.#reserve(header);
    this.#buffer.copyWithin(open.start + header, open.start, this.#pos);
    const end = this.#pos + header;
    this.#pos = open.start;
    this.#tag(open.field, LENGTH_DELIMITED);
    this.#varint(length);
    this.#pos = end;
    return this;
  }

  /** The message written (a view of the writer's buffer). */
  finish(): Buffer {
    if (this.#open.length > 0) throw new Error('a nested message was not closed');
    return this.#buffer.subarray(0, this.#pos);
  }

  #tag(field: number, wireType: number): void {
    this.#varint(tagOf(field, wireType));
  }

  #varint(value: number): void {
    this.#reserve(10);
    const buffer = this.#buffer;
    let n = value;
    while (n >= 0x80) {
      buffer[this.#pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    buffer[this.#pos++] = n;
  }

  #reserve(bytes: number): void {
    if (this.#pos + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#buffer.length * 2, this.#pos + bytes));
    this.#buffer.copy(grown, 0, 0, this.#pos);
    this.#buffer = grown;
  }
}

function tagOf(field: number, wireType: number): number {
  return field * 8 + wireType;
}

function varintSize(value: number): number {
  let size = 1;
  for (let n = value; n >= 0x80; n = Math.floor(n / 0x80)) size++;
  return size;
}

/** Reads the fields of one message (or of a nested one, between `pos` and `end`). */
export class ProtoReader {
  pos: number;

  constructor(
    readonly buffer: Buffer,
    pos = 0,
    readonly end: number = buffer.length,
  ) {
    this.pos = pos;
  }

  /** Whether fields are left. */
  get more(): boolean {
    return this.pos < this.end;
  }

  /** The next field's tag: its number is `tag >>> 3`, its wire type `tag & 7`. */
  tag(): number {
    return this.varint();
  }

  /**
   * A varint as a number: exact up to 2^53 (revisions, counts, ids etcd assigns in sequence);
   * a larger one (a uint64 such as a cluster id) read here loses its low digits: see `uint64`.
   */
  varint(): number {
    const buffer = this.buffer;
    let result = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('protobuf: a varint runs past the message');
      const byte = buffer[this.pos++] as number;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 0x80;
      if (scale > 2 ** 63) throw new RangeError('protobuf: a varint longer than 10 bytes');
    }
  }

  /** A uint64 varint, exact, in decimal (etcd's cluster and member ids use all 64 bits). */
  uint64(): string {
    let low = 0;
    let high = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new RangeError('protobuf: a varint runs past the message');
      const byte = this.buffer[this.pos++] as number;
      const bits = byte & 0x7f;
      if (shift < 28) low += bits * 2 ** shift;
      else if (shift === 28) {
        low += (bits & 0x0f) * 2 ** 28;
        high += bits >>> 4;
      } else high += bits * 2 ** (shift - 32);
      if (byte < 0x80) break;
      shift += 7;
      if (shift > 63) throw new RangeError('protobuf: a varint longer than 10 bytes');
    }
    high %= TWO_32;
    return high === 0 ? String(low) : (BigInt(high) * BigInt(TWO_32) + BigInt(low)).toString();
  }

  bool(): boolean {
    return this.varint() !== 0;
  }

  /** A length-delimited field's bounds, the reader moved past it. */
  delimited(): { start: number; end: number } {
    const length = this.varint();
    const start = this.pos;
    const end = start + length;
    if (end > this.end) throw new RangeError('protobuf: a field runs past the message');
    this.pos = end;
    return { start, end };
  }

  /** A bytes field, as a view of the message's buffer (no copy). */
  bytes(): Buffer {
    const { start, end } = this.delimited();
    return this.buffer.subarray(start, end);
  }

  string(): string {
    const { start, end } = this.delimited();
    return this.buffer.toString('utf8', start, end);
  }

  /** A reader of the nested message in the field just tagged. */
  nested(): ProtoReader {
    const { start, end } = this.delimited();
    return new ProtoReader(this.buffer, start, end);
  }

  /** Skips the value of a field not read, by its wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case VARINT:
        this.varint();
        return;
      case FIXED64:
        this.pos += 8;
        break;
      case LENGTH_DELIMITED:
        this.delimited();
        return;
      case FIXED32:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`protobuf: wire type ${wireType} not supported`);
    }
    if (this.pos > this.end) throw new RangeError('protobuf: a field runs past the message');
  }
}
