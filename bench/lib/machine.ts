/** Where a benchmark ran: enough to compare a figure with one from another machine. */
import os from "node:os";

export function machine(): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim() ?? "unknown CPU";
  const gib = (os.totalmem() / 2 ** 30).toFixed(1);
  return `${model} × ${cpus.length} cores, ${gib} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}, node ${process.version}`;
}
