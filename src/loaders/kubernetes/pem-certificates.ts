/** A PEM block: `-----BEGIN TYPE-----`, its body (base64, maybe headers), `-----END TYPE-----`. */
const PEM_BLOCK = /-----BEGIN ([^\n-]+)-----\r?\n([\s\S]*?)-----END \1-----/g;

/**
 * Whether a PEM bundle holds at least one certificate that parses, as Go's
 * `x509.CertPool.AppendCertsFromPEM` answers it (what cert-manager's `validateCABundleNotEmpty`
 * asks): `CERTIFICATE` blocks without headers, each parsed as DER (by OpenSSL here, by Go's
 * `x509.ParseCertificate` there), others skipped.
 */
export function holdsValidCertificate(pem: string): boolean {
  for (const [, type, body = ''] of pem.matchAll(PEM_BLOCK)) {
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
