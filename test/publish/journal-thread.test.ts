/**
 * The all-or-nothing suite of journal.test.ts (a publish stopped at every step, a full disk), with
 * every file staged in the copy thread (write.ts setArquivosEmThread(0)) instead of the publishing
 * thread. A full disk is simulated by the test writer, which keeps files in the publishing
 * thread: those cases check that path again.
 */
import { setArquivosEmThread } from "../../pipeline/publish/write.ts";

setArquivosEmThread(0);
await import("./journal.test.ts");
