/**
 * `npm run validate`'s check of .fatos.json against the whole tree: every series' facts must be
 * what rendering its JSON gives now, its JSON file must have the recorded fingerprint, and its
 * block of the long file the recorded bytes. An update trusts the facts after checking only
 * sizes (site/store.ts), so this is where a file changed behind the pipeline's back keeping its
 * size is caught, before the workflow commits or deploys anything.
 */
import { createHash } from "node:crypto";
import type { SerieFile } from "../domain/publicados.ts";
import { seriesJsonPath } from "../domain/series.ts";
import { HISTORICO_LONGO_PATH } from "../render/csv.ts";
import { stringifyDoc } from "../render/json.ts";
import { CABECALHO_LONGO, blocoLongo, defsDoLongo } from "../render/longo.ts";
import { renderSerie } from "../render/serie.ts";
import { allSeries, getSource } from "../sources/index.ts";
import { bytesPorParteDoLongo, fonteDeBytes, type FonteDoLongo } from "../validate/dados.ts";
import { fatosDaSerie } from "./assemble.ts";
import { FATOS_PATH, impressao, type Fatos } from "./fatos.ts";

const build = "rode npm run build";

/**
 * Problems of the facts file in a whole tree (path -> bytes); none when the tree has no facts.
 * `longo`: where to read the long file from (a file on disk, npm run validate); without it,
 * `files` gives it.
 */
export function conferirFatos(files: ReadonlyMap<string, Buffer>, longo?: FonteDoLongo): string[] {
  const raw = files.get(FATOS_PATH);
  if (!raw) return [];
  let fatos: Fatos;
  try {
    fatos = JSON.parse(raw.toString("utf8")) as Fatos;
  } catch (e) {
    return [`${FATOS_PATH}: JSON inválido (${(e as Error).message}); ${build}`];
  }
  if (fatos.versao !== 1 || typeof fatos.series !== "object" || fatos.series === null) return [`${FATOS_PATH}: formato desconhecido; ${build}`];
  const out: string[] = [];
  const ids = new Set(allSeries().map((d) => d.id));
  for (const id of Object.keys(fatos.series)) if (!ids.has(id)) out.push(`${FATOS_PATH}: registra a série ${id}, que o catálogo não tem; ${build}`);
  for (const def of allSeries()) {
    const path = seriesJsonPath(def);
    const bytes = files.get(path);
    const fa = fatos.series[def.id];
    let doc: SerieFile | null = null;
    try {
      doc = bytes ? (JSON.parse(bytes.toString("utf8")) as SerieFile) : null;
    } catch {
      continue; // the file's own check says it is not JSON
    }
    // a file that is not a series document is reported by its own check (schemas); here it only has no facts
    if (doc && !Array.isArray(doc.historico)) continue;
    if (!doc || doc.historico.length === 0) {
      if (fa) out.push(`${FATOS_PATH}: registra a série ${def.id}, mas ${path} não está publicado; ${build}`);
      continue;
    }
    if (!fa) {
      out.push(`${FATOS_PATH}: não registra a série ${def.id} (${path} existe); ${build}`);
      continue;
    }
    const agora = impressao(bytes!);
    if (agora.sha256 !== fa.json.sha256 || agora.bytes !== fa.json.bytes) {
      out.push(`${FATOS_PATH}: ${path} mudou desde a publicação que registrou os fatos (${agora.bytes} bytes, registrados ${fa.json.bytes}); ${build}`);
      continue;
    }
    let dados: string;
    try {
      const f = renderSerie({ def, source: getSource(def.fonte), historico: doc.historico, praca: doc.praca ?? null, pracas: doc.pracas ?? null, proveniencia: doc.proveniencia, atualizado: doc.atualizado });
      dados = JSON.stringify(fatosDaSerie(def, f, stringifyDoc(f), Buffer.from(blocoLongo(def, f), "utf8")));
    } catch {
      continue; // not renderable: its own check (schemas) says why
    }
    if (dados !== JSON.stringify(fa)) out.push(`${FATOS_PATH}: os fatos da série ${def.id} não são os que ${path} dá; ${build}`);
  }
  // hashed block by block, read in parts: the long file (75 MB at 30 years) is never whole in memory
  const fonte = longo ?? (files.has(HISTORICO_LONGO_PATH) ? fonteDeBytes(files.get(HISTORICO_LONGO_PATH)!) : undefined);
  if (fonte) {
    const parte = Buffer.allocUnsafe(Math.min(bytesPorParteDoLongo(), Math.max(1, fonte.bytes)));
    let at = Buffer.byteLength(CABECALHO_LONGO);
    for (const d of defsDoLongo()) {
      const fa = fatos.series[d.id];
      if (!fa) continue;
      if (sha256DoTrecho(fonte, parte, at, fa.longo.bytes) !== fa.longo.sha256) {
        out.push(`${FATOS_PATH}: o bloco da série ${d.id} em ${HISTORICO_LONGO_PATH} não é o registrado; ${build}`);
        break;
      }
      at += fa.longo.bytes;
    }
    if (out.length === 0 && at !== fonte.bytes) out.push(`${FATOS_PATH}: ${HISTORICO_LONGO_PATH} tem ${fonte.bytes} bytes, os fatos registram ${at}; ${build}`);
  }
  return out;
}

/** sha256 of bytes [at, at + n) of the long file (fewer past its end, as subarray would give), read through `parte`. */
function sha256DoTrecho(fonte: FonteDoLongo, parte: Buffer, at: number, n: number): string {
  const h = createHash("sha256");
  const fim = Math.min(at + n, fonte.bytes);
  for (let p = at; p < fim; ) {
    const lidos = fonte.ler(parte.subarray(0, Math.min(parte.length, fim - p)), p);
    if (lidos <= 0) break;
    h.update(parte.subarray(0, lidos));
    p += lidos;
  }
  return h.digest("hex");
}
