import { connect } from "node:net";

/**
 * One raw HTTP/1.1 exchange over a socket: sends the bytes exactly as given (fetch would
 * normalise "..", percent-escapes and reject odd headers) and returns status, headers and body.
 */
export function rawRequest(port: number, request: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const sep = all.indexOf("\r\n\r\n");
      const head = all.subarray(0, sep < 0 ? all.length : sep).toString("latin1");
      const bytes = sep < 0 ? Buffer.alloc(0) : all.subarray(sep + 4);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(":");
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: bytes.toString("utf8"), bytes });
    });
    socket.write(request);
  });
}

export function get(path: string, headers: Record<string, string> = {}): string {
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  return `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;
}
