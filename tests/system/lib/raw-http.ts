/**
 * Sends a request exactly as written: fetch() would normalize `../`, re-encode the path and
 * refuse some headers, which is precisely what a hostile client does not do.
 */
import http from "node:http";

export type RawRequest = {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean;
};

export type RawResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
};

export function send(base: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined && !req.chunked && headers["content-length"] === undefined)
      headers["content-length"] = Buffer.byteLength(req.body);
    const r = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? "GET",
        path: req.path,
        headers,
        // A fresh connection per request: one hostile request must not poison the next.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    r.on("error", reject);
    if (req.body !== undefined) {
      if (req.chunked) {
        // Several writes so the server really sees a chunked stream.
        const buf = Buffer.from(req.body);
        for (let i = 0; i < buf.length; i += 16_384) r.write(buf.subarray(i, i + 16_384));
      } else r.write(req.body);
    }
    r.end();
  });
}
