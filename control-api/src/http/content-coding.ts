/**
 * Accept-Encoding (RFC 9110 12.5.3): which of the codings a representation is stored in the client
 * takes, best first. Explicit q-values win; at equal q, Brotli before gzip before identity (the
 * smaller body first). `q=0` refuses a coding, `*` stands for every coding not named, `x-gzip` is
 * gzip. Identity is acceptable unless refused (`identity;q=0`, or `*;q=0` without naming it).
 */

export type TContentCoding = 'br' | 'gzip' | 'identity';

/** The server's order at equal q. */
const PREFERENCE: Record<TContentCoding, number> = { br: 0, gzip: 1, identity: 2 };
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The q-value each named coding (lower case, `x-gzip` read as gzip) and `*` was given; malformed members are ignored. */
function readAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const member of header.split(',')) {
    const [name = '', ...params] = member.split(';').map((part) => part.trim());
    if (name === '') continue;
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [key = '', value = ''] = param.split('=').map((part) => part.trim());
      if (key.toLowerCase() !== 'q') continue;
      if (!QVALUE.test(value)) valid = false;
      else q = Number(value);
    }
    if (!valid) continue;
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // Named twice: the higher weight counts (a client never means to refuse what it also asks for).
    weights.set(coding, Math.max(q, weights.get(coding) ?? 0));
  }
  return weights;
}

/**
 * The codings of `available` the client accepts, best first. Without an Accept-Encoding header a
 * client is sent identity (what every client can read); an empty header also means identity only.
 */
export function acceptableCodings(header: string | undefined, available: readonly TContentCoding[]): TContentCoding[] {
  if (header === undefined) return available.includes('identity') ? ['identity'] : [];
  const weights = readAcceptEncoding(header);
  const star = weights.get('*');
  const ranked: { coding: TContentCoding; q: number; implicit: boolean }[] = [];
  for (const coding of available) {
    const named = weights.get(coding);
    const q = named ?? star ?? (coding === 'identity' ? 1 : 0);
    if (q > 0) ranked.push({ coding, q, implicit: named === undefined && star === undefined });
  }
  // An identity the client did not mention is only the fallback: any coding it named comes first.
  ranked.sort((a, b) => Number(a.implicit) - Number(b.implicit) || b.q - a.q || PREFERENCE[a.coding] - PREFERENCE[b.coding]);
  return ranked.map((r) => r.coding);
}
