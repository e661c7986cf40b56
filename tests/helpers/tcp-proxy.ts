/**
 * A TCP proxy inside a test, between our code and a real server (PostgreSQL), that cuts the
 * connection at a chosen point of the conversation: when the client's bytes contain a given
 * text (a statement), either before they reach the server (the server sees the connection end
 * in the middle of a transaction and rolls it back) or right after (the server runs the
 * statement, say a COMMIT, and its answer never reaches us). Every other byte passes unchanged.
 */
import net from "node:net";

export type Cut = {
  /** Case-insensitive text in the client's bytes (the protocol carries SQL as plain text). */
  when: string;
  /** "before": the matching bytes are dropped; "after": they reach the server, then the cut. */
  at: "before" | "after";
};

export type TcpProxy = {
  /** The port to connect to instead of the server's. */
  port: number;
  /** Arms one cut: the next connection whose client sends `when` is cut; resolves when it was. */
  cutOnce(cut: Cut): Promise<void>;
  /** How many connections were cut so far. */
  cuts: number;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let armed: (Cut & { done: () => void }) | null = null;
  const sockets = new Set<net.Socket>();
  const state = { cuts: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    // After an "after" cut the upstream side is only ended (its last bytes still to be sent).
    let ending = false;
    const drop = () => {
      client.destroy();
      if (!ending) upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", drop);
    upstream.on("close", drop);
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("data", (chunk: Buffer) => {
      const cut = armed;
      if (cut && chunk.toString("latin1").toLowerCase().includes(cut.when.toLowerCase())) {
        armed = null;
        state.cuts++;
        if (cut.at === "after") {
          // The statement reaches the server whole (end() flushes, then FIN); our side never
          // hears its answer.
          ending = true;
          upstream.end(chunk);
          client.destroy();
        } else {
          drop();
        }
        cut.done();
        return;
      }
      upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    get cuts() {
      return state.cuts;
    },
    cutOnce: (cut) =>
      new Promise<void>((resolve) => {
        armed = { ...cut, done: resolve };
      }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
