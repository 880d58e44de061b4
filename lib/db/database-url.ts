import { StartupRefusal } from '../config/startup-refusal';

/**
 * DATABASE_URL in libpq's multi-host form, `postgres://user:pass@host1:5432,host2:5433/db?target_session_attrs=read-write`:
 * the URL the libpq tools (psql, pg_dump) take for a primary and its standby. node-postgres connects to one host and
 * the WHATWG URL parser refuses a comma-separated authority, so the URL is read here and each host is handed to
 * node-postgres as a single-host URL of its own (singleHostUrl).
 */
export interface DatabaseHost {
  host: string;
  port: number;
}

/** What a connection's server must be: any server that answers, one that accepts writes, or one not in recovery. */
export type TargetSessionAttrs = 'any' | 'read-write' | 'primary';

export interface DatabaseUrl {
  scheme: string;
  /** Percent-encoded as given, so that singleHostUrl hands them on unchanged. */
  userInfo: string;
  hosts: DatabaseHost[];
  /** The path after the authority (the database name), percent-encoded as given. */
  path: string;
  /** The query's other parameters, as given (target_session_attrs is read here and not passed on). */
  otherParameters: string[];
  targetSessionAttrs: TargetSessionAttrs;
}

const DEFAULT_PORT = 5432;
const SCHEME = /^(postgres|postgresql):\/\//i;
// The service writes: a target that picks a standby would send its writes where they are refused.
const ACCEPTED_TARGETS = new Set<TargetSessionAttrs>(['any', 'read-write', 'primary']);
// node-postgres would take these query parameters over the host of the URL it is given: with several hosts the
// authority names them, and a host= here would silently send every connection elsewhere.
const HOST_PARAMETERS = new Set(['host', 'hostaddr', 'port']);

function refuse(part: string): never {
  throw new StartupRefusal('DATABASE_URL', part);
}

/** Whether this URL needs the primary locator: several hosts, or a target_session_attrs that asks for a writable one. */
export function needsPrimaryLocator(url: string): boolean {
  const authority = SCHEME.test(url) ? url.replace(SCHEME, '').split(/[/?#]/, 1)[0]! : '';
  const hostList = authority.slice(authority.lastIndexOf('@') + 1);
  return hostList.includes(',') || /[?&]target_session_attrs=/.test(url);
}

function decoded(text: string, part: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return refuse(`${part} has a malformed percent-encoding`);
  }
}

function parseHost(text: string, position: number, count: number): DatabaseHost {
  const which = count > 1 ? `host ${position} of ${count}` : 'the host';
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) refuse(`${which} opens an IPv6 address with [ and never closes it`);
    host = text.slice(1, close);
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) refuse(`${which}: after an IPv6 address ] comes :port or nothing, got ${JSON.stringify(rest)}`);
    portText = rest === '' ? undefined : rest.slice(1);
    if (!/^[0-9a-f:.]+(%[\w.-]+)?$/i.test(host)) refuse(`${which}: ${JSON.stringify(host)} is not an IPv6 address`);
  } else {
    const colon = text.lastIndexOf(':');
    host = decoded(colon < 0 ? text : text.slice(0, colon), which);
    portText = colon < 0 ? undefined : text.slice(colon + 1);
  }
  if (host === '') refuse(`${which} is empty`);
  if (portText === undefined) return { host, port: DEFAULT_PORT };
  if (!/^\d{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65_535) {
    refuse(`the port of ${which} (${JSON.stringify(portText)}) is not a number from 1 to 65535`);
  }
  return { host, port: Number(portText) };
}

function parseTarget(value: string, hostCount: number): TargetSessionAttrs {
  if (!ACCEPTED_TARGETS.has(value as TargetSessionAttrs)) {
    refuse(`target_session_attrs=${value} is not one this service can run on: read-write or primary (the service writes), or any with a single host`);
  }
  if (value === 'any' && hostCount > 1) {
    refuse('target_session_attrs=any with several hosts would send writes to whichever answers first, a standby too: use read-write or primary');
  }
  return value as TargetSessionAttrs;
}

/** Reads DATABASE_URL; a malformed one is refused naming the part that is wrong, never echoing the password. */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  const scheme = SCHEME.exec(url);
  if (!scheme) refuse('must start with postgres:// or postgresql://');
  const rest = url.slice(scheme[0].length).split('#', 1)[0]!;
  const queryAt = rest.indexOf('?');
  const beforeQuery = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const query = queryAt < 0 ? '' : rest.slice(queryAt + 1);
  const pathAt = beforeQuery.indexOf('/');
  const authority = pathAt < 0 ? beforeQuery : beforeQuery.slice(0, pathAt);
  const path = pathAt < 0 ? '' : beforeQuery.slice(pathAt);
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? '' : authority.slice(0, at);
  if (userInfo !== '') {
    const colon = userInfo.indexOf(':');
    decoded(colon < 0 ? userInfo : userInfo.slice(0, colon), 'the user name');
    if (colon >= 0) decoded(userInfo.slice(colon + 1), 'the password');
  }
  decoded(path, 'the database name');
  const hostTexts = authority.slice(at + 1).split(',');
  const hosts = hostTexts.map((text, index) => parseHost(text, index + 1, hostTexts.length));
  let targetSessionAttrs: TargetSessionAttrs | undefined;
  const otherParameters: string[] = [];
  for (const parameter of query.split('&').filter((text) => text !== '')) {
    const name = decoded(parameter.split('=', 1)[0]!, 'a query parameter name');
    if (name === 'target_session_attrs') targetSessionAttrs = parseTarget(decoded(parameter.slice(name.length + 1), 'target_session_attrs'), hosts.length);
    else if (HOST_PARAMETERS.has(name)) refuse(`give the hosts and ports in the URL's authority (host1:port1,host2:port2), not as ?${name}=`);
    else otherParameters.push(parameter);
  }
  return { scheme: scheme[1]!.toLowerCase(), userInfo, hosts, path, otherParameters, targetSessionAttrs: targetSessionAttrs ?? (hosts.length > 1 ? 'read-write' : 'any') };
}

/** The URL of one of its hosts, in the form node-postgres takes: the same user, password, database and parameters. */
export function singleHostUrl(url: DatabaseUrl, host: DatabaseHost): string {
  const name = host.host.includes(':') ? `[${host.host}]` : encodeURIComponent(host.host);
  const query = url.otherParameters.length > 0 ? `?${url.otherParameters.join('&')}` : '';
  return `${url.scheme}://${url.userInfo === '' ? '' : `${url.userInfo}@`}${name}:${host.port}${url.path}${query}`;
}

/** host:port as an operator writes it (IPv6 in brackets), for messages: never the user or the password. */
export function hostName(host: DatabaseHost): string {
  return host.host.includes(':') ? `[${host.host}]:${host.port}` : `${host.host}:${host.port}`;
}
