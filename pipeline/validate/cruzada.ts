/**
 * Checks across files: every file that repeats a series' numbers (the aggregates, index.json,
 * status.json) must repeat them from the same version of the series file. A tree where one
 * series file is newer than the aggregate is two runs mixed together, and is refused naming both
 * files. Only small summaries are kept (a series' first and last day, count, value), so the whole
 * tree is still read once, one file at a time. A pair is compared only when both files are in the
 * set (a run's set is the whole site; `npm run validate` sees the whole tree).
 */
import { isDeepStrictEqual } from "node:util";
import { mostrar } from "../contract/messages.ts";
import { agregadosUf } from "../domain/products.ts";
import { aggregateTable } from "../render/aggregate.ts";
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
}

const serieDoId = (id: string) => `api/v1/cotacao/${id}.json`;
const INDEX = "api/v1/index.json";
const STATUS = "api/v1/status.json";

/** Collects the summaries while files are added; `problemas()` compares them at the end. */
export class ChecagemCruzada {
  private readonly series = new Map<string, ResumoSerie>();
  private readonly agregados = new Map<string, Obj>();
  private index: Obj | null = null;
  private status: Obj | null = null;

  /** `p`: normalized path; `data`: the parsed document, already valid against its schema. */
  add(p: string, data: unknown): void {
    if (!isObj(data)) return;
    if (p === INDEX) this.index = data;
    else if (p === STATUS) this.status = data;
    else if (p === "api/v1/cotacao.json" || /^api\/v1\/cotacao\/uf\/[A-Z]{2}\.json$/.test(p)) this.agregados.set(p, pickAgregado(data));
    else if (/^api\/v1\/cotacao\/[a-z_]+(?:\/[A-Z]{2})?\.json$/.test(p) && Array.isArray(data.historico)) {
      const h = data.historico as unknown[];
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
    });
  }

  /** Every disagreement, as "path: message" lines keyed by the file that quotes the series. */
  problemas(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const push = (p: string, msg: string) => {
      const l = out.get(p) ?? [];
      l.push(`${p}: ${msg}`);
      out.set(p, l);
    };
    const mix = "os arquivos são de versões diferentes dos dados (publicação misturada?); rode npm run build";

    for (const [p, agg] of this.agregados) {
      const datas = isObj(agg.datas) ? agg.datas : {};
      for (const [k, id] of Object.entries(serieDoAgregado())) {
        const sp = serieDoId(id);
        const s = this.series.get(sp);
        if (!s || !(k in agg)) continue;
        if (agg[k] !== s.valorUltimo || datas[k] !== s.ultima) {
          push(p, `/${k}: ${mostrar(agg[k])} de ${mostrar(datas[k])} não confere com ${sp}, cujo último dia é ${mostrar(s.ultima)} (${mostrar(s.valorUltimo)}); ${mix}`);
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
        if (q.preco !== s.valorUltimo || q.data !== s.ultima || (q.data_cotacao ?? q.data) !== s.ultima || (q.praca ?? "") !== (s.praca ?? "")) {
          push(
            p,
            `/${campo}: ${mostrar(q.preco)} de ${mostrar(q.data)} (data_cotacao ${mostrar(q.data_cotacao)}, praça ${mostrar(q.praca)}) não confere com ${sp}, cujo último dia é ` +
              `${mostrar(s.ultima)} (${mostrar(s.valorUltimo)}, praça ${mostrar(s.praca)}); ${mix}`,
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
  const out: Obj = { datas: d.datas };
  for (const k of [...Object.keys(serieDoAgregado()), ...Object.keys(cotacaoUf())]) if (k in d) out[k] = d[k];
  return out;
}
