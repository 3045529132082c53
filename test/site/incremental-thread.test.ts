/**
 * incremental.test.ts (an update's tree is byte for byte a full rebuild's; facts trusted only
 * when they describe the tree) with every file of each set staged in the copy thread
 * (publish/write.ts setArquivosEmThread(0)) instead of the publishing thread.
 */
import { setArquivosEmThread } from "../../pipeline/publish/write.ts";

setArquivosEmThread(0);
await import("./incremental.test.ts");
