/** Element and attribute names and the namespaces they resolve to: scopes of prefix declarations, and prefixes used undeclared. */
import { NS, UNDECLARED_PREFIX_NS } from '../../model/namespaces.ts';

export interface XmlName {
  /** Namespace URI, '' for none. */
  readonly ns: string;
  readonly local: string;
}

export interface XmlAttribute {
  /** Namespace URI, '' for an unprefixed attribute. */
  ns: string;
  local: string;
  value: string;
}

export interface Scope {
  readonly prefixes: Map<string, string>;
  readonly parent: Scope | undefined;
}

export interface OpenElement {
  readonly qname: string;
  /** The raw start tag, replayed to saxes if it takes over. */
  readonly raw: string;
  readonly scope: Scope;
  readonly ns: string;
  readonly local: string;
}

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';
export const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
/** Declared namespace names are swapped for these constants, so consumers compare them by identity, not by 43 characters. */
export const KNOWN_NAMESPACES = new Map<string, string>(Object.values(NS).map((ns) => [ns, ns]));
/** The scope outside the document: only the two prefixes XML binds itself. */
export const ROOT_SCOPE: Scope = { prefixes: new Map([['xml', XML_NS], ['xmlns', XMLNS_NS]]), parent: undefined };

export function lookup(scope: Scope | undefined, prefix: string): string | undefined {
  for (let s = scope; s !== undefined; s = s.parent) {
    const ns = s.prefixes.get(prefix);
    if (ns !== undefined) return ns;
  }
  return undefined;
}

/** `qname` resolved in `scope` (an unprefixed attribute is in no namespace), or undefined when its prefix is unbound or it is no QName. */
export function resolveName(qname: string, scope: Scope, isElement: boolean): XmlName | undefined {
  const colon = qname.indexOf(':');
  if (colon === -1) return { ns: isElement ? (lookup(scope, '') ?? '') : '', local: qname };
  if (colon === 0 || colon === qname.length - 1 || qname.indexOf(':', colon + 1) !== -1) return undefined;
  const prefix = qname.slice(0, colon);
  if (prefix === 'xmlns') return undefined;
  const ns = lookup(scope, prefix);
  return ns === undefined || ns === '' ? undefined : { ns, local: qname.slice(colon + 1) };
}

/** What an undeclared prefix is read as: its namespace in sitemaps, else UNDECLARED_PREFIX_NS and the prefix. */
export function assumedNamespace(prefix: string): string {
  return Object.hasOwn(NS, prefix) ? NS[prefix as keyof typeof NS] : UNDECLARED_PREFIX_NS + prefix;
}

export function unboundPrefixMessage(prefix: string): string {
  const known = Object.hasOwn(NS, prefix);
  return `unbound namespace prefix "${prefix}" (no xmlns:${prefix} declares it); ${known ? `read as ${assumedNamespace(prefix)}, its namespace in sitemaps` : 'read as in an unknown namespace'}`;
}
