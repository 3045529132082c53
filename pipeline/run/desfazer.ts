/**
 * `npm run desfazer -- COMMIT`: takes back the data one published commit brought (a wrong
 * number), without taking back what consumers were told since. A `git revert` of a data commit
 * reverts eventos.json too: the next run would hand out `seq` numbers already read, and nothing
 * would tell subscribers that the value went back. Here the series histories and the capture log
 * the commit changed go back to its parent's state (the days it changed only: a later day of the
 * same series stays), eventos.json moves forward with events that say which values went back
 * (numbered after the newest seq, ids chained as an update's), and the whole site is rendered
 * from the restored histories and published all or nothing, as `npm run build` would render it.
 * Nothing is committed: the update does not commit either (the workflow's changelog step does).
 */
import { existsSync } from "node:fs";
import { readFile, realpath, rm } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import type { Config } from "../config.ts";
import { readPublished } from "../contract/schemas.ts";
import { PipelineError } from "../domain/errors.ts";
import type { HistoricoEntry, PracaQuote, SerieFile } from "../domain/publicados.ts";
import { seriesJsonPath, type SeriesDef } from "../domain/series.ts";
import { loadEventos, nextEventos, type Evento, type MudancaDeSerie } from "../events/model.ts";
import { capturasPath, loadCapturas, type CapturasFile } from "../history/capturas.ts";
import { diffEntry, diffQuotes } from "../check/revisions.ts";
import { arquivoDesfeitos, DESFEITOS_FILE, loadDesfeitos, serializarDesfeitos, temValor, type Desfeito } from "../history/desfeitos.ts";
import type { Revision } from "../history/merge.ts";
import { writeAtomic } from "../io/files.ts";
import { git, gitValue, gitValueOrNull } from "../io/git.ts";
import { isControlPath } from "../publish/journal.ts";
import { holdsDataLock, withDataLock } from "../publish/lock.ts";
import { publishFiles } from "../publish/write.ts";
import type { ResumoSerie } from "../render/resumo.ts";
import { renderSerie } from "../render/serie.ts";
import { montarSite, type EntradaDoSite } from "../site/assemble.ts";
import { lerSerie, rascunhoDoLongo } from "../site/store.ts";
import { allSeries, getSource } from "../sources/index.ts";
import { nextStatus } from "./status.ts";

export interface DesfazerOptions {
  config: Config;
  /** the commit whose data to take back (a hash, a prefix of one, a ref) */
  commit: string;
  now: Date;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
}

export interface DesfazerReport {
  /** the full hash of the commit undone */
  commit: string;
  curto: string;
  assunto: string;
  /** the series whose history went back, in catalogue order */
  series: string[];
  /** capture records taken out of the log */
  capturas: number;
  /**
   * the values it took off the site, now in desfeitos.json (a page that brings one back is held);
   * sorted as the file
   */
  desfeitos: Desfeito[];
  /** entries of desfeitos.json it took out: values it brought back (an undo of an undo) */
  liberados: Desfeito[];
  /** the events this undo appended, newest first */
  eventos: Evento[];
  /** files replaced or created, sorted */
  written: string[];
  /** the suggested commit command (nothing is committed) */
  commitSugerido: string;
}

/** One series' stored parts, as a series file holds them (everything else is derived). */
interface Partes {
  historico: HistoricoEntry[];
  praca: string | null;
  pracas: NonNullable<SerieFile["pracas"]> | null;
  proveniencia: SerieFile["proveniencia"];
  atualizado: string;
}

const CAPTURAS = /^api\/v1\/capturas\/(\d{4})\.json$/;

function erro(commit: string, reason: string): PipelineError {
  return new PipelineError({ stage: "merge", reason: `desfazer ${commit}: ${reason}` });
}

export async function runDesfazer(opts: DesfazerOptions): Promise<DesfazerReport> {
  // the same lock as update and build: nothing publishes while histories are read and restored
  if (!holdsDataLock(opts.config.publicDir)) {
    return withDataLock(opts.config.publicDir, { esperar: true, log: opts.log, comando: `desfazer ${opts.commit}` }, () => runDesfazer(opts));
  }
  const { config, now } = opts;
  const log = opts.log ?? (() => {});
  const root = config.publicDir;
  const pedido = opts.commit;

  const topo = await gitValueOrNull(root, ["rev-parse", "--show-toplevel"]);
  if (topo === null) throw erro(pedido, `o diretório de dados ${root} não está num repositório git: sem o histórico não há o que desfazer`);
  const site = relative(await realpath(topo), await realpath(root)).split(sep).join("/");
  // a path of the site (relative to the site root) as git names it (relative to the repository)
  const noRepo = (rel: string) => (site === "" ? rel : `${site}/${rel}`);
  const doSite = (p: string) => (site === "" ? p : p.slice(site.length + 1));

  // uncommitted data would be mixed into the undo (and lost with a checkout): refuse it
  const sujos = (await git(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--", site === "" ? "." : `:/${site}`]))
    .split("\0")
    .filter((l) => l.length > 3)
    .map((l) => l.slice(3))
    .filter((p) => !isControlPath(doSite(p)));
  // the undone values are kept beside the data, at the top of the repository (history/desfeitos.ts)
  const arquivo = arquivoDesfeitos(root);
  if (site === "" || arquivo === null || (await realpath(dirname(arquivo))) !== (await realpath(topo))) {
    throw erro(
      pedido,
      `o diretório de dados ${root} ${site === "" ? "é a raiz do repositório git" : "não está na árvore de trabalho do repositório"}: ` +
        `${DESFEITOS_FILE}, que guarda os valores desfeitos para que a próxima atualização não os publique de novo, fica na raiz do repositório, fora do site. Nada foi mudado`,
    );
  }
  if ((await git(root, ["status", "--porcelain=v1", "--untracked-files=all", "--", `:/${DESFEITOS_FILE}`])).trim() !== "") sujos.push(DESFEITOS_FILE);
  if (sujos.length > 0) {
    const lista = sujos.slice(0, 10).join(", ") + (sujos.length > 10 ? ` e mais ${sujos.length - 10}` : "");
    throw erro(pedido, `há mudanças não commitadas em ${site || "."}/ (${lista}); faça commit delas ou descarte-as antes de desfazer um commit. Nada foi mudado`);
  }

  const sha = await gitValueOrNull(root, ["rev-parse", "--verify", "--quiet", `${pedido}^{commit}`]);
  if (sha === null) throw erro(pedido, `o commit ${pedido} não existe neste repositório (confira o hash com git log -- ${site || "."}). Nada foi mudado`);
  const curto = sha.slice(0, 12);
  const assunto = await gitValue(root, ["log", "-1", "--format=%s", sha]);
  const nome = `${curto} ("${assunto}")`;
  const pais = (await gitValue(root, ["rev-list", "--parents", "-n", "1", sha])).split(" ").slice(1);
  if (pais.length > 1) {
    throw erro(
      pedido,
      `${nome} é um merge (${pais.length} pais): os dados dele vêm dos commits que ele junta; desfaça o commit de dados errado, não o merge (git log --first-parent -- ${site || "."}). Nada foi mudado`,
    );
  }
  if (pais.length === 0) {
    // a shallow clone (actions/checkout's default) cuts the history: its oldest commit has no parent here
    if ((await gitValueOrNull(root, ["rev-parse", "--is-shallow-repository"])) === "true") {
      throw erro(
        pedido,
        `${nome} é o commit mais antigo deste clone raso (shallow): o pai dele não foi baixado, e sem ele não há o estado de antes. ` +
          `Baixe o histórico (git fetch --unshallow) e tente de novo. Nada foi mudado`,
      );
    }
    throw erro(pedido, `${nome} é o primeiro commit do repositório: não há estado anterior para onde voltar. Nada foi mudado`);
  }
  const pai = pais[0]!;
  if ((await gitValueOrNull(root, ["merge-base", "--is-ancestor", sha, "HEAD"])) === null) {
    throw erro(pedido, `${nome} não está no histórico do HEAD (é de outro ramo?): só se desfaz um commit já publicado neste ramo. Nada foi mudado`);
  }

  const mudados = (await git(root, ["diff-tree", "-r", "--no-commit-id", "--name-only", "-z", pai, sha, "--", site === "" ? "." : `:/${site}`]))
    .split("\0")
    .filter((p) => p !== "")
    .map(doSite);
  const porCaminho = new Map(allSeries().map((d) => [seriesJsonPath(d), d] as const));
  const series = allSeries().filter((d) => mudados.includes(seriesJsonPath(d)));
  const anos = mudados.flatMap((p) => (CAPTURAS.test(p) ? [Number(CAPTURAS.exec(p)![1])] : []));
  if (series.length === 0 && anos.length === 0) {
    const fora = mudados.filter((p) => /^api\/v1\/cotacao\/.+\.json$/.test(p) && !porCaminho.has(p));
    const extra = fora.length > 0 ? ` (mudou ${fora.join(", ")}, de séries que o catálogo não tem mais)` : "";
    throw erro(pedido, `${nome} não mudou nenhum dado: nenhum histórico de série (api/v1/cotacao/...) nem registro de capturas (api/v1/capturas/)${extra}; nada a desfazer`);
  }
  if (anos.length > 1) {
    throw erro(pedido, `${nome} mudou os registros de capturas de ${anos.length} anos (${anos.join(", ")}); este comando desfaz os de um ano só. Nada foi mudado`);
  }

  const show = async (rev: string, rel: string): Promise<string | null> => {
    try {
      return await git(root, ["show", `${rev}:${noRepo(rel)}`]);
    } catch {
      return null;
    }
  };
  /** The later commits that touched a file, oldest first: hash and subject. */
  const posteriores = async (rel: string) =>
    (await git(root, ["log", "--reverse", "--format=%H%x09%s", `${sha}..HEAD`, "--", `:/${noRepo(rel)}`]))
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => ({ sha: l.slice(0, 40), assunto: l.slice(41) }));
  /** The first later commit after which `mudou` says the file is no longer what `sha` left. */
  const quemMudou = async (rel: string, mudou: (texto: string | null) => boolean) => {
    for (const c of await posteriores(rel)) if (mudou(await show(c.sha, rel))) return c;
    return null;
  };
  const conflito = (c: { sha: string; assunto: string } | null, oQue: string) =>
    erro(
      pedido,
      `o commit posterior ${c ? `${c.sha.slice(0, 12)} ("${c.assunto}")` : "(não encontrado)"} mudou de novo ${oQue}, que ${curto} tinha mudado: ` +
        `desfazer só ${curto} jogaria fora esse commit. Desfaça primeiro o posterior${c ? ` (npm run desfazer -- ${c.sha.slice(0, 12)})` : ""} e depois ${curto}, ` +
        `ou corrija o valor com uma nova atualização. Nada foi mudado`,
    );

  // each series the commit changed, back to its parent's days; a later day stays
  const restauradas = new Map<string, Partes>();
  const atuais = new Map<string, SerieFile>();
  const jaDesfeitas: string[] = [];
  for (const def of series) {
    const rel = seriesJsonPath(def);
    const tp = await show(pai, rel);
    const tc = await show(sha, rel);
    if (tp === null) {
      throw erro(
        pedido,
        `${nome} publicou a série ${def.id} pela primeira vez (${rel} não existia antes dele): desfazê-lo apagaria os arquivos dela, o que este comando não faz. ` +
          `Tire a série do site à mão (git rm dos arquivos dela em ${site || "."}/, depois npm run build). Nada foi mudado`,
      );
    }
    if (tc === null) {
      throw erro(
        pedido,
        `${nome} apagou ${rel}: este comando desfaz dias e valores, não arquivos apagados. Traga o arquivo de volta com git checkout ${pai.slice(0, 12)} -- ${noRepo(rel)} e rode npm run build. Nada foi mudado`,
      );
    }
    const h = await readPublished(root, rel, "serie.schema.json");
    if (h === null) throw conflito(await quemMudou(rel, (t) => t === null), `a série ${def.id} (apagou ${rel})`);
    atuais.set(def.id, h);
    const p = partes(JSON.parse(tp) as SerieFile);
    const c = partes(JSON.parse(tc) as SerieFile);
    const agora = partes(h);
    const r = restaurar(def, p, c, agora);
    if (r.tipo === "ja_desfeito") {
      jaDesfeitas.push(def.id);
      continue;
    }
    if (r.tipo === "conflito") {
      const c2 = await quemMudou(rel, (t) => t === null || r.mudou(partes(JSON.parse(t) as SerieFile)));
      throw conflito(c2, r.oQue);
    }
    restauradas.set(def.id, r.partes);
  }
  if (jaDesfeitas.length > 0 && restauradas.size === 0 && anos.length === 0) {
    throw erro(pedido, `os dados de ${nome} já foram desfeitos: ${jaDesfeitas.join(", ")} já têm os valores de antes dele. Nada foi mudado`);
  }
  if (jaDesfeitas.length > 0) log(`desfazer: ${jaDesfeitas.join(", ")} já tinham os valores de antes de ${curto}; ficam como estão`);

  // the capture records the commit added leave the log (the log is append-only: later records stay)
  let capturas: CapturasFile | undefined;
  let tiradas = 0;
  const ano = anos[0];
  if (ano !== undefined) {
    const rel = capturasPath(ano);
    const ids = (t: string | null) => new Set(t === null ? [] : (JSON.parse(t) as CapturasFile).capturas.map((c) => c.id));
    const antes = ids(await show(pai, rel));
    const novas = [...ids(await show(sha, rel))].filter((id) => !antes.has(id));
    const log_ = await loadCapturas(root, ano);
    const fica = log_.capturas.filter((c) => !novas.includes(c.id));
    tiradas = log_.capturas.length - fica.length;
    if (tiradas > 0) capturas = { ...log_, capturas: fica };
  }
  if (restauradas.size === 0 && capturas === undefined) {
    throw erro(pedido, `os dados de ${nome} já foram desfeitos (nenhum histórico nem registro de capturas dele está publicado agora). Nada foi mudado`);
  }

  // what went back, told as an update tells a change: from what subscribers were last told (the
  // published file) to the restored value
  const changes: MudancaDeSerie[] = [];
  const renderizadas = new Map<string, SerieFile>();
  // every value taken off the site goes to desfeitos.json, so no update publishes it again; an
  // entry whose value this undo brings back (the undo of an undo) leaves it
  const antes = loadDesfeitos(root);
  const tirados: Desfeito[] = [];
  const liberados: Desfeito[] = [];
  for (const def of series) {
    const r = restauradas.get(def.id);
    if (!r) continue;
    const f = renderSerie({ def, source: getSource(def.fonte), ...r });
    renderizadas.set(def.id, f);
    const m = mudanca(def, atuais.get(def.id)!, f);
    if (m) changes.push(m);
    const agora = atuais.get(def.id)!;
    const volta = new Map(f.historico.map((e) => [e.data, e] as const));
    for (const e of agora.historico) {
      const v = volta.get(e.data);
      if (v === undefined || JSON.stringify(v) !== JSON.stringify(e)) tirados.push(...valoresTirados(def.id, e, v, sha));
    }
    // the newest day's quotes went back while the day stays the newest (a same-day re-read that
    // changed another praça's 30-day price): those numbers are in no history line
    if (agora.pracas && f.pracas && agora.data_cotacao === f.data_cotacao) {
      const noDia = new Set(Object.keys(f.historico.at(-1)?.pracas ?? {}));
      tirados.push(...cotacoesTiradas(def.id, f.data_cotacao, agora.pracas, f.pracas, f.praca ?? null, noDia, sha));
    }
    for (const d of antes) {
      const v = d.serie === def.id ? volta.get(d.data) : undefined;
      if (v !== undefined && temValor(v, v.data === f.data_cotacao ? f.pracas : null, d)) liberados.push(d);
    }
  }
  const desfeitos = [...antes.filter((d) => !liberados.includes(d)), ...tirados];
  const textoDesfeitos = serializarDesfeitos(desfeitos);
  const textoAntes = existsSync(arquivo) ? await readFile(arquivo, "utf8") : null;
  const mudaDesfeitos = textoDesfeitos !== (textoAntes ?? serializarDesfeitos([]));

  const prevStatus = await readPublished(root, "api/v1/status.json", "status.schema.json");
  const eventosAntes = await loadEventos(root);
  const eventos = nextEventos(eventosAntes, changes, now);
  const topoAntes = eventosAntes?.eventos[0]?.seq ?? 0;
  const novos = eventos.eventos.filter((e) => e.seq > topoAntes);
  // every series rendered from its history, as `npm run build` does: the restored ones from
  // their restored days, the others as stored
  const entrada: EntradaDoSite = {
    carregar: async (def: SeriesDef) => renderizadas.get(def.id) ?? lerSerie(root, def, { paraRenderizar: true }),
    renderizar: () => true,
    fatos: null,
    rascunho: rascunhoDoLongo(root),
    longoPublicado: () => {
      throw new Error("desfazer não copia blocos");
    },
  };
  // the sources' state stays as it is; the series' last days are judged again
  const status = (resumos: ReadonlyMap<string, ResumoSerie>) => nextStatus(prevStatus, [], resumos, config, now, opts.env ?? process.env);
  // the undone values are recorded before the site loses them: killed in between, the worst
  // left is a page held for a value still published (late), never the value coming back
  if (mudaDesfeitos) await writeAtomic(arquivo, textoDesfeitos);
  let published;
  try {
    published = await publishFiles(root, montarSite(entrada, status, config, { eventos, ...(capturas ? { capturas } : {}) }));
    if (published.erros.length > 0) {
      throw new PipelineError({
        stage: "validate",
        reason: `desfazer ${pedido}: os arquivos gerados não passaram na validação; nada foi escrito:\n  ${published.erros.join("\n  ")}`,
      });
    }
  } catch (err) {
    // nothing was published: desfeitos.json goes back to what it was
    if (mudaDesfeitos) {
      if (textoAntes === null) await rm(arquivo, { force: true });
      else await writeAtomic(arquivo, textoAntes);
    }
    throw err;
  }
  // the undone values go in the same commit as the data they were taken from
  const caminhos = mudaDesfeitos ? `${site} ${DESFEITOS_FILE}` : site;
  const mensagem = `Undo the data of ${curto} (${assunto.replace(/"/g, "'")})`;
  return {
    commit: sha,
    curto,
    assunto,
    series: [...restauradas.keys()],
    capturas: tiradas,
    desfeitos: desfeitos.filter((d) => d.commit === sha && !antes.some((a) => a.serie === d.serie && a.data === d.data && a.campo === d.campo && a.valor === d.valor)),
    liberados,
    eventos: novos,
    written: published.written,
    commitSugerido: `git add --all -- ${caminhos} && git commit -m "${mensagem}" -- ${caminhos}`,
  };
}

function partes(f: SerieFile): Partes {
  return { historico: f.historico, praca: f.praca ?? null, pracas: f.pracas ?? null, proveniencia: f.proveniencia, atualizado: f.atualizado };
}

const porDia = (h: readonly HistoricoEntry[]) => new Map(h.map((e) => [e.data, JSON.stringify(e)] as const));
const chavePracas = (p: Partes) => JSON.stringify([p.praca, p.pracas]);
const ultimoDia = (p: Partes) => p.historico[p.historico.length - 1]?.data ?? null;

type Restauracao =
  | { tipo: "ok"; partes: Partes }
  | { tipo: "ja_desfeito" }
  /** `mudou` tells a later version of the file that changed what conflicts */
  | { tipo: "conflito"; oQue: string; mudou: (p: Partes) => boolean };

/**
 * The series as it would be had the commit (parent `p` → `c`) never happened, from what is
 * published now (`h`): the days the commit changed go back to the parent's, the others stay
 * as they are now. A day the commit changed that a later commit changed again is a conflict:
 * undoing it would throw the later value away.
 */
function restaurar(def: SeriesDef, p: Partes, c: Partes, h: Partes): Restauracao {
  // untouched since: the parent's file, whole
  if (JSON.stringify(c) === JSON.stringify(h)) return { tipo: "ok", partes: p };
  // a new reference praça re-based every day: a later day is on the new praça, and the parent's on the old one
  if (p.praca !== c.praca) {
    return { tipo: "conflito", oQue: `a série ${def.id} (ele trocou a praça de referência de ${p.praca} para ${c.praca})`, mudou: (x) => JSON.stringify(x) !== JSON.stringify(c) };
  }
  const dp = porDia(p.historico);
  const dc = porDia(c.historico);
  const dh = porDia(h.historico);
  const dias = [...new Set([...dp.keys(), ...dc.keys()])].filter((d) => dp.get(d) !== dc.get(d)).sort();
  const outra = dias.find((d) => dh.get(d) !== dc.get(d));
  if (outra !== undefined) {
    if (dias.every((d) => dh.get(d) === dp.get(d))) return { tipo: "ja_desfeito" };
    return { tipo: "conflito", oQue: `${def.id} em ${outra}`, mudou: (x) => porDia(x.historico).get(outra) !== dc.get(outra) };
  }
  const mapa = new Map(h.historico.map((e) => [e.data, e] as const));
  const doPai = new Map(p.historico.map((e) => [e.data, e] as const));
  for (const d of dias) {
    const e = doPai.get(d);
    if (e) mapa.set(d, e);
    else mapa.delete(d);
  }
  const historico = [...mapa.values()].sort((a, b) => (a.data < b.data ? -1 : 1));
  const ultimo = historico[historico.length - 1]?.data ?? null;
  // praça and praças describe the newest day: the parent's when the undo goes back to its newest
  // day, or when the commit changed them for a day that is still the newest and nothing since did
  let praca = h.praca;
  let pracas = h.pracas;
  const pracasDoCommit = chavePracas(c) !== chavePracas(p) && chavePracas(h) === chavePracas(c);
  if (ultimo !== ultimoDia(h) || pracasDoCommit) {
    if (ultimo !== ultimoDia(p)) {
      return { tipo: "conflito", oQue: `as praças de ${def.id} (o último dia, ${ultimo}, não é o de antes nem o de agora)`, mudou: () => true };
    }
    // the parent's praças were quoted at the parent's newest day: revised since (a later page
    // also showing it), they would name its superseded values beside the revised ones
    if (ultimo !== null && JSON.stringify(mapa.get(ultimo)) !== dp.get(ultimo)) {
      return {
        tipo: "conflito",
        oQue: `as praças de ${def.id} (o dia que volta a ser o último, ${ultimo}, foi revisado depois)`,
        mudou: (x) => porDia(x.historico).get(ultimo) !== dp.get(ultimo),
      };
    }
    praca = p.praca;
    pracas = p.pracas;
  }
  return { tipo: "ok", partes: { historico, praca, pracas, proveniencia: h.proveniencia, atualizado: h.atualizado } };
}

/** What the undo changed in one series, from the published file (`h`) to the restored one (`r`); null: no day changed. */
function mudanca(def: SeriesDef, h: SerieFile, r: SerieFile): MudancaDeSerie | null {
  const dh = new Map(h.historico.map((e) => [e.data, e] as const));
  const dr = new Map(r.historico.map((e) => [e.data, e] as const));
  const added = r.historico.filter((e) => !dh.has(e.data)).map((e) => e.data);
  const removidos = h.historico.filter((e) => !dr.has(e.data)).map((e) => e.data);
  const revised: Revision[] = r.historico.flatMap((e) => {
    const antes = dh.get(e.data);
    return antes && JSON.stringify(antes) !== JSON.stringify(e) ? [{ data: e.data, antes, depois: e }] : [];
  });
  const pracasChanged = JSON.stringify([h.praca ?? null, h.pracas ?? null]) !== JSON.stringify([r.praca ?? null, r.pracas ?? null]);
  if (added.length === 0 && removidos.length === 0 && revised.length === 0 && !pracasChanged) return null;
  const a = h.historico[h.historico.length - 1]!;
  const d = r.historico[r.historico.length - 1]!;
  return {
    id: def.id,
    added,
    removidos,
    revised,
    campos: [],
    rebase: [],
    pracasChanged,
    // what subscribers were last told: the latest day as published now
    antes: { data: a.data, valor: a.valor },
    depois: { data: d.data, valor: d.valor },
  };
}

/** The report's lines, in pt-BR, for the operator. */
export function formatDesfazer(r: DesfazerReport, dir: string): string[] {
  const linhas = [`desfazer: dados de ${r.curto} ("${r.assunto}") desfeitos em ${dir}`];
  if (r.series.length > 0) linhas.push(`  séries de volta ao estado de antes dele: ${r.series.join(", ")}`);
  if (r.capturas > 0) linhas.push(`  ${r.capturas} registro(s) de captura dele retirado(s) do log`);
  if (r.desfeitos.length > 0) {
    linhas.push(
      `  ${r.desfeitos.length} valor(es) tirado(s) do site, guardado(s) em ${DESFEITOS_FILE} (a atualização e o backfill retêm a página que os trouxer de volta; um valor diferente entra normalmente):`,
    );
    for (const d of r.desfeitos) linhas.push(`    ${d.serie} em ${d.data}, ${d.campo}: ${d.valor}`);
  }
  for (const d of r.liberados) linhas.push(`  ${d.serie} em ${d.data}, ${d.campo} = ${d.valor} voltou ao site: a entrada saiu de ${DESFEITOS_FILE}`);
  if (r.eventos.length > 0) {
    const seqs = r.eventos.map((e) => e.seq);
    linhas.push(`  ${r.eventos.length} evento(s) novo(s) em eventos.json (seq ${Math.min(...seqs)} a ${Math.max(...seqs)}), do mais novo ao mais antigo:`);
    for (const e of r.eventos) linhas.push(`    ${e.seq} ${e.tipo}${e.tipo === "cotacao_atualizada" ? "" : ` ${e.dados.serie}`}`);
  } else {
    linhas.push("  nenhum evento novo (nenhum valor publicado mudou)");
  }
  linhas.push(`  ${r.written.length} arquivo(s) alterado(s)`);
  linhas.push(
    "nada foi commitado. Confira e publique como a atualização diária:",
    "  npm run validate",
    `  ${r.commitSugerido}`,
    "  npm run deploy && npm run notify   (os assinantes recebem os eventos acima)",
  );
  return linhas;
}

/**
 * The values an undo takes out of one day of one series: `agora` is the day as published, `volta`
 * what the undo brings back (undefined: the day leaves the series). A day taken out is its value
 * (the number the day announced; its other columns and praças often repeat the next day's and a
 * correction of the day could repeat them too); a day brought back is every number that differs.
 */
function valoresTirados(serie: string, agora: HistoricoEntry, volta: HistoricoEntry | undefined, commit: string): Desfeito[] {
  if (volta === undefined) return [{ serie, data: agora.data, campo: "valor", valor: agora.valor, commit }];
  return diffEntry(serie, volta, agora).flatMap((c) => (typeof c.depois === "number" ? [{ serie, data: c.data, campo: c.campo, valor: c.depois, commit }] : []));
}

/**
 * The quote columns an undo takes out of a series' newest day when that day stays the newest
 * (`agora` published, `volta` restored): every number that differs, but the reference praça's
 * (the history line holds its every column) and a praça's cash price the line's `pracas` holds.
 */
function cotacoesTiradas(serie: string, data: string, agora: readonly PracaQuote[], volta: readonly PracaQuote[], praca: string | null, noDia: ReadonlySet<string>, commit: string): Desfeito[] {
  return diffQuotes(serie, data, volta, agora, noDia).flatMap((c) =>
    typeof c.depois === "number" && !c.campo.startsWith(`pracas.${praca}.`) ? [{ serie, data, campo: c.campo, valor: c.depois, commit }] : [],
  );
}
