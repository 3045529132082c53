/**
 * Review of be15bb5 (a new block of the long file carries its sha256 to the checks instead of
 * being hashed again). The checks read the block's text line by line and then require the long
 * file's bytes at its place to hash as "what was checked"; with the sha256 taken from the item,
 * that hash is no longer derived from the text they read: in a run, the range's sha256 the copy
 * reports and the one the checks hold it to are the same value (r.fatos.longo.sha256), so the
 * comparison cannot fail whatever the bytes. A block whose bytes are not its checked text is
 * published. The item carries no hash now: the checks hash the text they read. Temp dirs only.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setFalhasDePublicacao } from "../../pipeline/publish/journal.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { HISTORICO_LONGO_PATH } from "../../pipeline/render/csv.ts";
import { COLUNAS_LONGO } from "../../pipeline/render/longo.ts";
import { ChecagemDados, type BytesDoLongo } from "../../pipeline/validate/dados.ts";

const cabecalho = `${COLUNAS_LONGO.join(",")}\n`;
// longer than the first bytes a copied range shows the checks (copia.js CABECA, 256)
const bloco = Array.from({ length: 20 }, (_, i) => `soja,soja,PR,true,,cepea,sc60kg,BRL,2026-09-${String(i + 1).padStart(2, "0")},${(160 + i / 4).toFixed(2)}\n`).join("");
// same length, a day that does not exist (past the first 256 bytes): the line-by-line check refuses it
const ruim = bloco.replace("2026-09-15", "2026-13-15");
const sha = (t: string) => createHash("sha256").update(t).digest("hex");

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cotacao-review-bloco-"));
});
afterEach(async () => {
  setFalhasDePublicacao({});
  await rm(dir, { recursive: true, force: true });
});

describe("review: the sha256 a new block carries to the checks", () => {
  it("the checks hold the file's bytes to the text they read, not to a hash handed with it", () => {
    const d = new ChecagemDados();
    // the text read is good; the file holds other bytes (hashed by the copy as they are)
    d.blocoNovo("soja", bloco);
    const n = Buffer.byteLength(cabecalho);
    const b = Buffer.from(cabecalho + ruim);
    const vista: BytesDoLongo = {
      length: b.length,
      at: (i) => (i <= n || i === b.length - 1 ? b[i] : undefined),
      texto: (i, j) => (j <= n ? b.toString("utf8", i, j) : null),
      sha256De: (i, j) => (i === n && j === b.length ? sha(ruim) : null),
    };
    const problemas = d.longoMontado(vista, { blocos: [{ id: "soja", bytes: Buffer.byteLength(ruim) }] });
    expect(problemas.map((p) => p.mensagem).join("\n")).toContain("o bloco novo da série soja");
  });

  it("a publish whose block put aside is not its checked text refuses the set", async () => {
    // the scratch file as montarSite leaves it, holding other bytes than the text it yielded
    const rascunho = join(dir, "rascunho.blocos");
    await writeFile(rascunho, ruim);
    const r = await publishFiles(dir, [
      { blocoNovo: "soja", texto: bloco },
      {
        path: HISTORICO_LONGO_PATH,
        partes: [Buffer.from(cabecalho), { de: rascunho, inicio: 0, bytes: Buffer.byteLength(ruim), sha256: sha(ruim), rotulo: "o bloco novo de soja, posto de lado" }],
        doc: { blocos: [{ id: "soja", bytes: Buffer.byteLength(ruim) }] },
      },
    ]);
    const publicado = await readFile(join(dir, HISTORICO_LONGO_PATH), "utf8").catch(() => null);
    // (with be15bb5 the item carried the hash of the bytes put aside, and this set was published)
    expect(publicado ?? "").not.toContain("2026-13-15");
    expect(r.erros.join("\n")).toContain("soja");
  });
});
