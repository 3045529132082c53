/**
 * Writing files so that a reader (or a run killed midway) never sees half of one, shared by the
 * stages that write outside a publish: recorded pages (fetch/record.ts), the webhook delivery
 * state (events/webhooks.ts) and the publish itself (publish/).
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** The temp file a write goes through, beside its target (a dead run's is removed by recovery: publish/journal.ts). */
export function tempPath(target: string): string {
  return `${target}.tmp-${process.pid}`;
}

/** One file replaced whole: written beside its target, then renamed over it. */
export async function writeAtomic(target: string, data: string | Buffer): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const tmp = tempPath(target);
  try {
    await writeFile(tmp, data);
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Whether a process with this PID exists on this host (EPERM: it exists, owned by someone else).
 * The lock and the journal's recovery use it to tell a dead run's leftovers from a live one's.
 */
export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException | undefined)?.code === "EPERM";
  }
}
