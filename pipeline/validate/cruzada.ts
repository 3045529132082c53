/**
 * Checks across files: every file that repeats a series' numbers (the aggregates, index.json,
 * status.json) must repeat them from the same version of the series file. A tree where one
 * series file is newer than the aggregate is two runs mixed together, and is refused naming both
 * files. Only small summaries are kept (a series' first and last day, count, value), so the whole
 * tree is still read once, one file at a time. A pair is compared only when both files are in the
 * set (a run's set is the whole site; `npm run validate` sees the whole tree). A series' recent
 * file (api/v1/recente/...) must be exactly the last year of its series file: the same headline,
 * the same days and entries from the cut on (compared through one small hash per day).
 */
import { isDeepStrictEqual } from "node:util";
import { mostrar } from "../contract/messages.ts";
import { agregadosUf } from "../domain/products.ts";
import { aggregateTable } from "../render/aggregate.ts";
import { inicioDaJanela, janelaRecente } from "../render/serie.ts";
import type { SerieFile } from "../domain/publicados.ts";
import type { ResumoSerie as ResumoDaSerie } from "../render/resumo.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Each key of the aggregate and the series whose last day it shows (one table, in render/aggregate.ts). */
const serieDoAgregado = (): Readonly<Record<string, string>> => Object.fromEntries(aggregateTable());

/** The quotes of a state aggregate and the product of the state series each one shows. */
const cotacaoUf = (): Readonly<Record<string, string>> => Object.fromEntries(agregadosUf().map((a) => [a.chave, a.produto]));

interface ResumoSerie {
  primeira: unknown;
  ultima: unknown;
  /** value of the last day */
  valorUltimo: unknown;
  pontos: number;
  valor: unknown;
  data_cotacao: unknown;
  praca: unknown;
  variacao: unknown;
  unidade: unknown;
}

/** A recent window as the check keeps it: the headline, and each day with a hash of its entry. */
interface Janela {
  cabeca: Obj;
  datas: string[];
  hashes: number[];
}

/** JSON with keys sorted at every level: the same entry written with its keys in another order is the same entry. */
function canonico(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonico).join(",")}]`;
  if (isObj(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonico(v[k])}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** 32-bit FNV-1a: enough to tell one day's entry from another, four bytes a day. */
function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function resumoJanela(doc: Obj, historico: unknown[]): Janela {
  const { historico: _h, ...cabeca } = doc;
  return {
    cabeca,
    datas: historico.map((e) => (isObj(e) ? String(e.data) : "")),
    hashes: historico.map((e) => fnv(canonico(e))),
  };
}

const serieDoId = (id: string) => `api/v1/cotacao/${id}.json`;
/** api/v1/recente/{id}.json -> api/v1/cotacao/{id}.json */
const serieDoRecente = (p: string) => p.replace(/^api\/v1\/recente\//, "api/v1/cotacao/");
const INDEX = "api/v1/index.json";
const STATUS = "api/v1/status.json";

/** Collects the summaries while files are added; `problemas()` compares them at the end. */
export class ChecagemCruzada {
  private readonly series = new Map<string, ResumoSerie>();
  private readonly agregados = new Map<string, Obj>();
  private index: Obj | null = null;
  private status: Obj | null = null;
  /** what each series file says its recent file must be, by the series file's path */
  private readonly janelasEsperadas = new Map<string, Janela>();
  /** each recent file as published, by its series file's path */
  private readonly recentes = new Map<string, Janela>();

  /** `p`: normalized path; `data`: the parsed document, already valid against its schema. */
  add(p: string, data: unknown): void {
    if (!isObj(data)) return;
    if (p === INDEX) this.index = data;
    else if (p === STATUS) this.status = data;
    else if (p === "api/v1/cotacao.json" || /^api\/v1\/cotacao\/uf\/[A-Z]{2}\.json$/.test(p)) this.agregados.set(p, pickAgregado(data));
    else if (/^api\/v1\/recente\/[a-z_]+(?:\/[A-Z]{2})?\.json$/.test(p) && Array.isArray(data.historico)) {
      this.recentes.set(serieDoRecente(p), resumoJanela(data, data.historico));
    } else if (/^api\/v1\/cotacao\/[a-z_]+(?:\/[A-Z]{2})?\.json$/.test(p) && Array.isArray(data.historico)) {
      const h = data.historico as unknown[];
      if (h.length > 0) this.janelasEsperadas.set(p, resumoJanela(data, janelaRecente(data as unknown as SerieFile).historico));
      const first = h[0];
      const last = h[h.length - 1];
      this.series.set(p, {
        primeira: isObj(first) ? first.data : null,
        ultima: isObj(last) ? last.data : null,
        valorUltimo: isObj(last) ? last.valor : null,
        pontos: h.length,
        valor: data.valor,
        data_cotacao: data.data_cotacao,
        praca: data.praca,
        variacao: data.variacao,
        unidade: data.unidade,
      });
    }
  }

  /** An unchanged series of an incremental run, from what it said when it was published (site/fatos.ts). */
  serieReusada(p: string, r: ResumoDaSerie): void {
    this.series.set(p, {
      primeira: r.resumo.primeira_data,
      ultima: r.resumo.ultima_data,
      valorUltimo: r.resumo.ultimo_valor,
      pontos: r.resumo.pontos,
      valor: r.valor,
      data_cotacao: r.data_cotacao,
      praca: r.praca,
      variacao: r.variacao,
      unidade: r.unidade,
    });
  }

  /**
   * Every disagreement, as "path: message" lines keyed by the file that quotes the series. With
   * `arvore` (the whole published tree), a recent file must have its series file beside it.
   */
  problemas(arvore?: { has(path: string): boolean }): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const push = (p: string, msg: string) => {
      const l = out.get(p) ?? [];
      l.push(`${p}: ${msg}`);
      out.set(p, l);
    };
    const mix = "os arquivos são de versões diferentes dos dados (publicação misturada?); rode npm run build";

    for (const [p, agg] of this.agregados) {
      const datas = isObj(agg.datas) ? agg.datas : {};
      const unidades = isObj(agg.unidades) ? agg.unidades : {};
      for (const [k, id] of Object.entries(serieDoAgregado())) {
        const sp = serieDoId(id);
        const s = this.series.get(sp);
        if (!s || !(k in agg)) continue;
        if (agg[k] !== s.valorUltimo || datas[k] !== s.ultima) {
          push(p, `/${k}: ${mostrar(agg[k])} de ${mostrar(datas[k])} não confere com ${sp}, cujo último dia é ${mostrar(s.ultima)} (${mostrar(s.valorUltimo)}); ${mix}`);
        }
        // a price read in another unit is another number: R$ 15 the kg is not R$ 15 the arroba
        if (k in unidades && unidades[k] !== s.unidade) {
          push(p, `/unidades/${k}: ${mostrar(unidades[k])} não confere com a unidade de ${sp} (${mostrar(s.unidade)}); ${mix}`);
        }
      }
      const uf = /uf\/([A-Z]{2})\.json$/.exec(p)?.[1];
      if (!uf) continue;
      for (const [campo, produto] of Object.entries(cotacaoUf())) {
        if (!(campo in agg)) continue;
        const sp = serieDoId(`${produto}/${uf}`);
        const s = this.series.get(sp);
        const q = agg[campo];
        if (!s) {
          if (q !== null && q !== undefined) push(p, `/${campo}: traz uma cotação, mas ${sp} não está no conjunto publicado; ${mix}`);
          continue;
        }
        if (!isObj(q)) {
          if (s.pontos > 0) push(p, `/${campo}: é null, mas ${sp} tem histórico (último dia ${mostrar(s.ultima)}); ${mix}`);
          continue;
        }
        if (q.preco !== s.valorUltimo || q.data !== s.ultima || (q.data_cotacao ?? q.data) !== s.ultima || (q.praca ?? "") !== (s.praca ?? "") || q.unidade !== s.unidade) {
          push(
            p,
            `/${campo}: ${mostrar(q.preco)} ${mostrar(q.unidade)} de ${mostrar(q.data)} (data_cotacao ${mostrar(q.data_cotacao)}, praça ${mostrar(q.praca)}) não confere com ${sp}, cujo último dia é ` +
              `${mostrar(s.ultima)} (${mostrar(s.valorUltimo)} ${mostrar(s.unidade)}, praça ${mostrar(s.praca)}); ${mix}`,
          );
        }
      }
    }

    if (this.index && Array.isArray(this.index.series)) {
      this.index.series.forEach((e: unknown, i) => {
        if (!isObj(e) || typeof e.path !== "string") return;
        // index.json paths are relative to its own directory (api/v1/)
        const sp = `api/v1/${e.path}`;
        const s = this.series.get(sp);
        if (!s) return;
        const campos: Array<[string, unknown, unknown]> = [
          ["primeira_data", e.primeira_data, s.primeira],
          ["ultima_data", e.ultima_data, s.ultima],
          ["pontos", e.pontos, s.pontos],
          ["valor", e.valor, s.pontos > 0 ? s.valor : null],
        ];
        for (const [k, got, want] of campos) {
          if (got !== want) push(INDEX, `/series/${i}/${k}: ${mostrar(got)} não confere com ${sp} (${mostrar(want)}); ${mix}`);
        }
        if ("variacao" in e && !isDeepStrictEqual(e.variacao, s.variacao)) {
          push(INDEX, `/series/${i}/variacao: ${JSON.stringify(e.variacao)} não confere com ${sp} (${JSON.stringify(s.variacao)}); ${mix}`);
        }
      });
    }

    for (const [sp, r] of this.recentes) {
      const rp = sp.replace(/^api\/v1\/cotacao\//, "api/v1/recente/");
      const e = this.janelasEsperadas.get(sp);
      if (!e) {
        if (arvore && !arvore.has(sp)) push(rp, `não há ${sp}, a série completa de que este arquivo deve ser o último ano`);
        continue;
      }
      for (const k of new Set([...Object.keys(e.cabeca), ...Object.keys(r.cabeca)])) {
        if (!isDeepStrictEqual(r.cabeca[k], e.cabeca[k])) {
          push(rp, `/${k}: ${mostrar(r.cabeca[k])} difere de ${sp} (${mostrar(e.cabeca[k])}); o arquivo recente repete a cotação da série completa; ${mix}`);
        }
      }
      problemasDaJanela(e, r).forEach((m) => push(rp, `/historico: ${m}; deve ser o histórico de ${sp} a partir de ${inicioDaJanela(e.datas[e.datas.length - 1]!)} (${e.datas.length} dias); ${mix}`));
    }

    if (this.status && Array.isArray(this.status.series)) {
      this.status.series.forEach((e: unknown, i) => {
        if (!isObj(e) || typeof e.id !== "string") return;
        const sp = serieDoId(e.id);
        const s = this.series.get(sp);
        if (!s) return;
        const want = s.pontos > 0 ? s.data_cotacao : null;
        if (e.ultima_data !== want) push(STATUS, `/series/${i}/ultima_data: ${mostrar(e.ultima_data)} não confere com ${sp} (último dia ${mostrar(want)}); ${mix}`);
      });
    }
    return out;
  }
}

function pickAgregado(d: Obj): Obj {
  const out: Obj = { datas: d.datas, unidades: d.unidades };
  for (const k of [...Object.keys(serieDoAgregado()), ...Object.keys(cotacaoUf())]) if (k in d) out[k] = d[k];
  return out;
}

/** Where a published window departs from the expected one: the first day missing, extra or different. */
function problemasDaJanela(e: Janela, r: Janela): string[] {
  const n = Math.max(e.datas.length, r.datas.length);
  for (let i = 0; i < n; i++) {
    const de = e.datas[i];
    const dr = r.datas[i];
    if (de === dr) {
      if (e.hashes[i] !== r.hashes[i]) return [`/${i} (${dr}) difere do mesmo dia na série completa`];
      continue;
    }
    if (dr === undefined) return [`termina em ${mostrar(r.datas[r.datas.length - 1] ?? null)}, faltam ${e.datas.length - r.datas.length} dia(s) a partir de ${de}`];
    if (de === undefined) return [`tem ${r.datas.length - e.datas.length} dia(s) a mais, a partir de ${dr} (/${i})`];
    // both sorted: the earlier of the two is the day one of them lacks
    return de < dr ? [`falta o dia ${de} (/${i})`] : [`o dia ${dr} (/${i}) não é da janela da série completa`];
  }
  return [];
}
