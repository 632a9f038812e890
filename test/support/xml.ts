/**
 * A small XML well-formedness checker for tests (no XML parser among our dependencies): one root element, tags
 * nested and closed, attributes quoted and unique, only the five predefined entities and character references,
 * no `<` in text or attribute values. Returns the element tree; throws on the first violation with its offset.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** Text directly inside, entities decoded. */
  text: string;
}

const NAME = /^[A-Za-z_:][\w.:-]*/;
const ENTITY = /^&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/;
const DECODE: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(raw: string, at: number): string {
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '<') throw new Error(`"<" in text or attribute at ${at + i}`);
    if (c !== '&') {
      out += c;
      continue;
    }
    const m = ENTITY.exec(raw.slice(i));
    if (!m) throw new Error(`bare "&" at ${at + i}`);
    const e = m[1] as string;
    out += e.startsWith('#x')
      ? String.fromCodePoint(parseInt(e.slice(2), 16))
      : e.startsWith('#')
        ? String.fromCodePoint(Number(e.slice(1)))
        : DECODE[e];
    i += m[0].length - 1;
  }
  return out;
}

export function parseXml(src: string): XmlElement {
  let i = 0;
  const skipMisc = (): void => {
    for (;;) {
      const ws = /^\s*/.exec(src.slice(i));
      i += ws ? ws[0].length : 0;
      if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) throw new Error(`unclosed comment at ${i}`);
        i = end + 3;
      } else if (src.startsWith('<?', i)) {
        const end = src.indexOf('?>', i + 2);
        if (end < 0) throw new Error(`unclosed processing instruction at ${i}`);
        i = end + 2;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (src[i] !== '<') throw new Error(`expected "<" at ${i}`);
    i++;
    const name = NAME.exec(src.slice(i))?.[0];
    if (!name) throw new Error(`expected an element name at ${i}`);
    i += name.length;
    const el: XmlElement = { name, attrs: {}, children: [], text: '' };
    for (;;) {
      const ws = /^\s*/.exec(src.slice(i))?.[0] ?? '';
      i += ws.length;
      if (src.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (ws === '') throw new Error(`expected whitespace before an attribute at ${i}`);
      const attr = /^([A-Za-z_:][\w.:-]*)\s*=\s*("([^"]*)"|'([^']*)')/.exec(src.slice(i));
      if (!attr) throw new Error(`malformed attribute at ${i}`);
      const key = attr[1] as string;
      if (key in el.attrs) throw new Error(`duplicate attribute ${key} at ${i}`);
      el.attrs[key] = decode(attr[3] ?? attr[4] ?? '', i);
      i += attr[0].length;
    }
    for (;;) {
      const lt = src.indexOf('<', i);
      if (lt < 0) throw new Error(`<${name}> is not closed`);
      el.text += decode(src.slice(i, lt), i);
      i = lt;
      if (src.startsWith('</', i)) {
        const close = new RegExp(`^</${name.replace(/[.]/g, '\\.')}\\s*>`).exec(src.slice(i));
        if (!close) throw new Error(`expected </${name}> at ${i}`);
        i += close[0].length;
        return el;
      }
      if (src.startsWith('<!--', i)) {
        const end = src.indexOf('-->', i + 4);
        if (end < 0) throw new Error(`unclosed comment at ${i}`);
        i = end + 3;
        continue;
      }
      el.children.push(element());
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i !== src.length) throw new Error(`content after the root element at ${i}`);
  return root;
}

/** Every element of the tree named `name`, depth first. */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => findAll(c, name))];
}
