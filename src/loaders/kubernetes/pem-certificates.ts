const BEGIN = '-----BEGIN ';
const END = '-----END ';
const DASHES = '-----';

/** A PEM block's type and body (base64, maybe headers). */
interface PemBlock {
  readonly type: string;
  readonly body: string;
}

/**
 * The PEM blocks of a text, in order: `-----BEGIN TYPE-----` (a type of neither dashes nor line
 * feeds) and a line feed, the body, and the first `-----END TYPE-----` after it; a `BEGIN` line
 * no such `END` follows is skipped. Each `END` line is found once, up front, so a text of many
 * `BEGIN` lines and no `END` is read in linear time (a lazy body searched from each `BEGIN` reads
 * the rest of the text each time: quadratic).
 */
function pemBlocks(pem: string): PemBlock[] {
  /** Where the `-----END TYPE-----` lines of each type start, in order. */
  const ends = new Map<string, number[]>();
  for (let at = pem.indexOf(END); at !== -1; at = pem.indexOf(END, at + 1)) {
    const type = pemType(pem, at + END.length);
    if (type !== undefined) {
      const starts = ends.get(type);
      if (starts === undefined) ends.set(type, [at]);
      else starts.push(at);
    }
  }
  /** The next `END` of each type still to consider, an index into its starts. */
  const next = new Map<string, number>();
  const blocks: PemBlock[] = [];
  for (let at = pem.indexOf(BEGIN); at !== -1;) {
    const type = pemType(pem, at + BEGIN.length);
    let bodyStart = type === undefined ? -1 : at + BEGIN.length + type.length + DASHES.length;
    if (pem[bodyStart] === '\r') bodyStart++;
    if (type === undefined || pem[bodyStart] !== '\n') {
      at = pem.indexOf(BEGIN, at + 1);
      continue;
    }
    bodyStart++;
    const starts = ends.get(type) ?? [];
    let i = next.get(type) ?? 0;
    while (i < starts.length && (starts[i] as number) < bodyStart) i++;
    next.set(type, i);
    const end = starts[i];
    if (end === undefined) {
      at = pem.indexOf(BEGIN, at + 1);
      continue;
    }
    blocks.push({ type, body: pem.slice(bodyStart, end) });
    at = pem.indexOf(BEGIN, end + END.length + type.length + DASHES.length);
  }
  return blocks;
}

/** The type of a `BEGIN` or `END` line whose type starts at `from`: up to `-----`, or undefined. */
function pemType(pem: string, from: number): string | undefined {
  let at = from;
  while (at < pem.length && pem[at] !== '-' && pem[at] !== '\n') at++;
  if (at === from || !pem.startsWith(DASHES, at)) return undefined;
  return pem.slice(from, at);
}

/**
 * Whether a PEM bundle holds at least one certificate that parses, as Go's
 * `x509.CertPool.AppendCertsFromPEM` answers it (what cert-manager's `validateCABundleNotEmpty`
 * asks): `CERTIFICATE` blocks without headers, each parsed as DER (by OpenSSL here, by Go's
 * `x509.ParseCertificate` there), others skipped.
 */
export function holdsValidCertificate(pem: string): boolean {
  for (const { type, body } of pemBlocks(pem)) {
    if (type !== 'CERTIFICATE' || body.includes(':')) continue;
    const der = Buffer.from(body.replace(/\s+/g, ''), 'base64');
    if (der.length === 0) continue;
    try {
      // Loaded when a bundle is checked: `check` of other manifests does not load node:crypto.
      new (process.getBuiltinModule('node:crypto').X509Certificate)(der);
      return true;
    } catch {
      // Not a certificate Go would parse either: the next block.
    }
  }
  return false;
}

/**
 * The text of a Go `[]byte` field as JSON carries it (standard base64, padded; Go's decoder skips
 * line feeds and carriage returns), or `undefined` when it is not base64: the CRD's
 * `format: byte` reports that.
 */
export function decodeGoBytes(value: string): string | undefined {
  const compact = value.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(compact)) {
    return undefined;
  }
  return Buffer.from(compact, 'base64').toString('latin1');
}
