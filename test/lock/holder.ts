/**
 * A process that holds the data directory's lock until a line arrives on its stdin (or it is
 * killed): the "other run" of the lock tests. Usage: tsx test/lock/holder.ts DIR
 */
import { withDataLock } from "../../pipeline/publish/lock.ts";

const dir = process.argv[2]!;
await withDataLock(dir, { esperar: false, comando: "teste: segura a trava" }, async () => {
  process.stdout.write("travado\n");
  await new Promise<void>((r) => process.stdin.once("data", () => r()));
});
process.stdout.write("liberado\n");
process.stdin.destroy();
