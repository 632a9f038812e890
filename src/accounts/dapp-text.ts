/**
 * What a dapp listing may not carry, beyond its fields' shapes: text that misleads the reader (a direction override
 * that shows `exe.txt` as `txt.exe`, characters that show nothing), URLs that mean something other than they say,
 * and sites on hosts a wallet user's browser would reach inside their own machine or network. Pure functions: the
 * listing's validation (`dapp-validate.ts`) turns a finding into the field's 400.
 */

/**
 * Invisible characters refused in names, descriptions and notes: every format character (Unicode `Cf`: the
 * direction embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E, U+200F and U+061C,
 * zero-width space U+200B, word joiner U+2060, BOM U+FEFF, soft hyphen U+00AD, tag characters…), line and paragraph
 * separators (U+2028, U+2029: use `\n`), and the Hangul fillers that render as nothing (U+115F, U+1160, U+3164,
 * U+FFA0). Control characters (`Cc`) are refused by the fields' own rules.
 */
const INVISIBLE = /[\p{Cf}\u2028\u2029\u115f\u1160\u3164\uffa0]/u;
/** U+200D (zero-width joiner) inside an emoji sequence (👩‍💻): after an emoji and its modifier, before an emoji. */
const ZWJ_IN_EMOJI =
  /(?<=\p{Extended_Pictographic}(?:\u{fe0f}|\p{Emoji_Modifier})?)\u200d(?=\p{Extended_Pictographic})/gu;
/** U+200C (zero-width non-joiner) between letters: Persian, Indic scripts. */
const ZWNJ_BETWEEN_LETTERS = /(?<=\p{L}\p{M}*)\u200c(?=\p{L})/gu;

/**
 * The first invisible character of `v` a reader could be misled by, as `U+202E at character 5` (counted in code
 * points from 1), or null. The joiners are allowed where they are part of the writing: U+200D within an emoji
 * sequence, U+200C between letters.
 */
export function invisibleIn(v: string): string | null {
  // The joiners that belong are replaced by a letter (one code unit for one: the positions stay).
  const checked = v.replace(ZWJ_IN_EMOJI, 'j').replace(ZWNJ_BETWEEN_LETTERS, 'j');
  const m = INVISIBLE.exec(checked);
  if (!m) return null;
  const cp = (m[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0');
  return `U+${cp} at character ${[...checked.slice(0, m.index)].length + 1}`;
}

/** What kind of non-public host `hostname` (as `URL.hostname` writes it) is, or null for a public one. */
export function nonPublicHost(hostname: string): string | null {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (host.startsWith('[')) return ipv6Kind(host.slice(1, -1));
  if (/^\d+\.\d+\.\d+\.\d+$/.test(host)) return ipv4Kind(host.split('.').map(Number));
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback host name';
  if (/\.(local|internal|home\.arpa)$/.test(host) || host === 'local' || host === 'internal')
    return 'a local network name';
  if (!host.includes('.')) return 'a name without a domain (an intranet name)';
  return null;
}

function ipv4Kind([a = 0, b = 0]: number[]): string | null {
  if (a === 127) return 'a loopback address';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'a private address';
  if (a === 169 && b === 254) return 'a link-local address';
  if (a === 100 && b >= 64 && b <= 127) return 'a shared (carrier-grade NAT) address';
  if (a === 0) return 'an unspecified address';
  if (a >= 224) return 'a multicast or reserved address';
  return null;
}

/** `URL` writes IPv6 compressed, lowercase, in hexadecimal groups only (no dotted IPv4 tail). */
function ipv6Kind(addr: string): string | null {
  const [head = '', tail] = addr.split('::');
  const groups = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const g = [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(7) && g7 === 1) return 'a loopback address';
  if (zeroTo(8)) return 'an unspecified address';
  // An IPv4 address inside: mapped (::ffff:a.b.c.d), compatible (::a.b.c.d) or NAT64 (64:ff9b::a.b.c.d).
  const mapped = zeroTo(5) && (g5 === 0xffff || g5 === 0);
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (mapped || nat64) return ipv4Kind([g6 >> 8, g6 & 255, g7 >> 8, g7 & 255]);
  if ((g0 & 0xfe00) === 0xfc00) return 'a private (unique local) address';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g0 & 0xffc0) === 0xfec0) return 'a site-local address';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address';
  return null;
}
