/**
 * Writing files so that a reader (or a run killed midway) never sees half of one, shared by the
 * stages that write outside a publish: recorded pages (fetch/record.ts), the webhook delivery
 * state (events/webhooks.ts) and the publish itself (publish/).
 */
import { readFileSync } from "node:fs";
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

export interface InicioDeProcesso {
  /** /proc/sys/kernel/random/boot_id */
  boot: string;
  /** field 22 of /proc/PID/stat (starttime), in clock ticks since boot, as a decimal string */
  ticks: string;
}

/** A process's start on Linux (boot id and field 22 of /proc/PID/stat); null where /proc does not tell. */
export function inicioDoProcesso(pid: number): InicioDeProcesso | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    // the command name (field 2) is in parentheses and may hold spaces and ")": fields 3.. follow the last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = fields[22 - 3];
    return ticks && /^\d+$/.test(ticks) && boot ? { boot, ticks } : null;
  } catch {
    return null;
  }
}
