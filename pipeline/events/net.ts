/**
 * Where a webhook may be POSTed: https only, never to loopback, private, link-local or other
 * special-purpose addresses (a subscriber list is a way to make the Actions runner call any URL,
 * so it must not reach the runner's own network). The name is checked when the URL is read and
 * every address it resolves to is checked again when the connection is made, so a name that
 * resolves to 127.0.0.1 (or changes to it later) is refused as well.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { BlockList, isIP } from "node:net";

const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

/** True for an address a webhook must never reach. */
export function isPrivateAddress(address: string): boolean {
  const kind = isIP(address);
  if (kind === 4) return blocked.check(address, "ipv4");
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1]!, "ipv4");
    return blocked.check(address, "ipv6");
  }
  return true;
}

/**
 * Why a subscriber URL is refused (null when it is acceptable). `permitirInseguro` exists for
 * the tests' local receiver only; the notify command never sets it.
 */
export function motivoUrlRecusada(raw: string, permitirInseguro = false): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "URL inválida";
  }
  if (url.username || url.password) return "a URL não pode ter usuário ou senha (use o segredo para autenticar)";
  if (permitirInseguro) return url.protocol === "https:" || url.protocol === "http:" ? null : `protocolo ${url.protocol} não suportado`;
  if (url.protocol !== "https:") return `só URLs https são aceitas (recebido ${url.protocol.replace(/:$/, "")})`;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (isIP(host)) return isPrivateAddress(host) ? `endereço ${host} é local, privado ou reservado` : null;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local") || host.endsWith(".internal") || !host.includes(".")) {
    return `host ${host} não é um nome público`;
  }
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for net/tls.connect that fails when the name resolves to any refused address
 * (undici passes it through its `connect` options).
 */
export function lookupPublico(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, "");
    const list = addresses as LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad || list.length === 0) {
      const e = new Error(`${hostname} resolve para ${bad ? bad.address : "nenhum endereço"}, que não é público; entrega recusada`) as NodeJS.ErrnoException;
      e.code = "EADDRNOTPUBLIC";
      return callback(e, "");
    }
    if (options.all) return callback(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
}
