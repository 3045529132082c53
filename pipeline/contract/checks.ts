/**
 * What JSON Schema cannot say, checked in code and reported the same way as a schema error:
 * the order of a history, the headline fields agreeing with its last day, and the file's
 * content agreeing with its path. Every check reads `unknown` data defensively, since it runs
 * on documents that may also have failed the schema.
 */
import { diff, hasAtMostTwoDecimals, toHundredths, variationPct } from "../domain/money.ts";
import { agregados, agregadosUf, type Produto } from "../domain/products.ts";
import { ufPublicada } from "../domain/series.ts";
import type { UF } from "../domain/ufs.ts";
import { serieDef } from "../sources/index.ts";
import { isFormatoData } from "./data.ts";
import { mostrar, type Problema } from "./messages.ts";

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isMoney(v: unknown): v is number {
  return typeof v === "number" && hasAtMostTwoDecimals(v);
}

/** Exact to the centavo: compared as integer hundredths (only called on `isMoney` values). */
const cents = toHundredths;

/**
 * `historico` oldest first, one entry per day: every `data` strictly after the previous one.
 * Returns the problems; `base` is the pointer of the array.
 */
export function checarOrdemHistorico(historico: unknown, base = "/historico"): Problema[] {
  if (!Array.isArray(historico)) return [];
  const out: Problema[] = [];
  let prev: string | null = null;
  let prevIdx = -1;
  // a loop, and the day's shape by character codes: this runs on every day of every history
  for (let i = 0; i < historico.length; i++) {
    const e: unknown = historico[i];
    const data = isObj(e) ? e.data : undefined;
    if (typeof data !== "string" || !isFormatoData(data)) continue;
    if (prev !== null) {
      if (data === prev) {
        out.push({ ponteiro: `${base}/${i}/data`, mensagem: `data repetida: "${data}" já aparece em ${base}/${prevIdx} (um dia por entrada)` });
      } else if (data < prev) {
        out.push({
          ponteiro: `${base}/${i}/data`,
          mensagem: `fora de ordem: "${data}" vem depois de "${prev}" (${base}/${prevIdx}); o histórico vai do mais antigo ao mais recente`,
        });
      }
    }
    if (prev === null || data > prev) {
      prev = data;
      prevIdx = i;
    }
  }
  return out;
}

export interface SerieEsperada {
  produto: Produto;
  uf: UF | null;
}

/** Checks of a series file (cotacao/{produto}.json, cotacao/{produto}/{UF}.json). */
export function checarSerie(doc: unknown, esperado: SerieEsperada): Problema[] {
  if (!isObj(doc)) return [];
  const out: Problema[] = [];

  if (typeof doc.produto === "string" && doc.produto !== esperado.produto) {
    out.push({ ponteiro: "/produto", mensagem: `não corresponde ao caminho do arquivo: deve ser "${esperado.produto}" (recebido ${mostrar(doc.produto)})` });
  }
  // a national file publishes its series' own place (CEPEA's boi gordo: SP), or null for an
  // average of several states; a series not in the catalogue may publish either
  const def = esperado.uf === null ? serieDef(esperado.produto) : undefined;
  const ufEsperada = esperado.uf ?? (def ? ufPublicada(def) : undefined);
  if ("uf" in doc && (ufEsperada === undefined ? doc.uf !== null && typeof doc.uf !== "string" : doc.uf !== ufEsperada)) {
    const want =
      esperado.uf !== null
        ? `"${esperado.uf}"`
        : ufEsperada
          ? `"${ufEsperada}" (o lugar da referência nacional)`
          : "null (arquivo da referência nacional, média de mais de um estado)";
    out.push({ ponteiro: "/uf", mensagem: `não corresponde ao caminho do arquivo: deve ser ${want} (recebido ${mostrar(doc.uf)})` });
  }
  // the schema cannot tell a national file from a state one by its uf any more: the path does
  if (esperado.uf === null) {
    for (const campo of ["praca", "pracas"]) {
      if (campo in doc) out.push({ ponteiro: `/${campo}`, mensagem: "só existe nos arquivos de UF (api/v1/cotacao/{produto}/{UF}.json)" });
    }
  } else if (!("praca" in doc)) {
    // with praca the schema requires pracas; without it the schema reads the file as national
    out.push({ ponteiro: "", mensagem: "faltam praca e pracas, obrigatórios nos arquivos de UF" });
  }

  const historico = doc.historico;
  out.push(...checarOrdemHistorico(historico));

  if (Array.isArray(historico) && historico.length > 0) {
    const n = historico.length;
    const last = historico[n - 1];
    if (isObj(last)) {
      if (typeof last.data === "string" && typeof doc.data_cotacao === "string" && last.data !== doc.data_cotacao) {
        out.push({
          ponteiro: "/data_cotacao",
          mensagem: `deve ser igual à data da última entrada do histórico, "${last.data}" (recebido ${mostrar(doc.data_cotacao)})`,
        });
      }
      if (isMoney(last.valor) && isMoney(doc.valor) && cents(last.valor) !== cents(doc.valor)) {
        out.push({
          ponteiro: "/valor",
          mensagem: `deve ser igual ao valor da última entrada do histórico, ${last.valor} (recebido ${mostrar(doc.valor)})`,
        });
      }
    }
    const prev = n >= 2 ? historico[n - 2] : undefined;
    if ("variacao" in doc) {
      const v = doc.variacao;
      if (n < 2 && v !== null) {
        out.push({ ponteiro: "/variacao", mensagem: "deve ser null: o histórico tem um só dia" });
      } else if (n >= 2 && v === null) {
        out.push({ ponteiro: "/variacao", mensagem: "não pode ser null: o histórico tem um dia anterior" });
      } else if (isObj(v) && isObj(prev) && isObj(last)) {
        if (typeof prev.data === "string" && v.data_anterior !== prev.data) {
          out.push({
            ponteiro: "/variacao/data_anterior",
            mensagem: `deve ser a data da penúltima entrada do histórico, "${prev.data}" (recebido ${mostrar(v.data_anterior)})`,
          });
        }
        if (isMoney(prev.valor) && isMoney(v.anterior) && cents(prev.valor) !== cents(v.anterior)) {
          out.push({
            ponteiro: "/variacao/anterior",
            mensagem: `deve ser o valor da penúltima entrada do histórico, ${prev.valor} (recebido ${mostrar(v.anterior)})`,
          });
        }
        if (isMoney(prev.valor) && isMoney(last.valor)) {
          const absoluta = diff(prev.valor, last.valor);
          if (isMoney(v.absoluta) && cents(v.absoluta) !== cents(absoluta)) {
            out.push({ ponteiro: "/variacao/absoluta", mensagem: `deve ser ${absoluta} (último menos anterior) (recebido ${mostrar(v.absoluta)})` });
          }
          const pct = variationPct(prev.valor, last.valor);
          if (isMoney(v.percentual) && cents(v.percentual) !== cents(pct)) {
            out.push({ ponteiro: "/variacao/percentual", mensagem: `deve ser ${pct} (recebido ${mostrar(v.percentual)})` });
          }
        }
      }
    }
  }

  // The state's value is its reference praça's price on the latest day.
  if (esperado.uf !== null && typeof doc.praca === "string" && doc.praca !== "" && Array.isArray(doc.pracas) && doc.pracas.length > 0) {
    const ref = doc.pracas.find((p) => isObj(p) && p.praca === doc.praca);
    if (!isObj(ref)) {
      const nomes = doc.pracas.map((p) => (isObj(p) ? mostrar(p.praca) : "?")).join(", ");
      out.push({ ponteiro: "/praca", mensagem: `a praça de referência ${mostrar(doc.praca)} não está em pracas (${nomes})` });
    } else if (isMoney(ref.valor) && isMoney(doc.valor) && cents(ref.valor) !== cents(doc.valor)) {
      out.push({
        ponteiro: "/valor",
        mensagem: `deve ser igual ao valor da praça de referência ${mostrar(doc.praca)}, ${ref.valor} (recebido ${mostrar(doc.valor)})`,
      });
    }
  }
  return out;
}


/** Checks of an aggregate (`uf` null for cotacao.json, the UF for cotacao/uf/{UF}.json). */
export function checarAgregado(doc: unknown, uf: UF | null): Problema[] {
  if (!isObj(doc)) return [];
  const out: Problema[] = [];
  for (const campo of agregadosUf().map((a) => a.chave)) {
    if (!(campo in doc)) continue;
    const q = doc[campo];
    if (uf === null) {
      out.push({ ponteiro: `/${campo}`, mensagem: "só existe nos arquivos api/v1/cotacao/uf/{UF}.json" });
    } else if (isObj(q) && typeof q.uf === "string" && q.uf !== uf) {
      out.push({ ponteiro: `/${campo}/uf`, mensagem: `não corresponde ao caminho do arquivo: deve ser "${uf}" (recebido ${mostrar(q.uf)})` });
    }
  }
  const datas = doc.datas;
  if (isObj(datas)) {
    for (const k of agregados().map((a) => a.chave)) {
      if (!(k in doc) || !(k in datas)) continue;
      const temValor = doc[k] !== null;
      const temData = datas[k] !== null;
      if (temValor && !temData) out.push({ ponteiro: `/datas/${k}`, mensagem: `não pode ser null: ${k} tem valor e precisa dizer de que dia é` });
      if (!temValor && temData) out.push({ ponteiro: `/datas/${k}`, mensagem: `deve ser null: ${k} é null` });
    }
  }
  return out;
}

/**
 * Checks of eventos.json: `seq` falls by exactly one from each event to the next older, and no id
 * repeats. A hole or a repeat would tell a consumer that remembers the highest seq it read of a
 * loss that never happened, or hide one (a file edited by hand, or events taken back by a revert).
 */
export function checarEventos(doc: unknown): Problema[] {
  if (!isObj(doc) || !Array.isArray(doc.eventos)) return [];
  const out: Problema[] = [];
  const lista: unknown[] = doc.eventos;
  const vistos = new Map<unknown, number>();
  // the first break only: every later one follows from it
  let quebrada = false;
  lista.forEach((e, i) => {
    if (!isObj(e)) return;
    const antes = vistos.get(e.id);
    if (typeof e.id === "string" && antes !== undefined) out.push({ ponteiro: `/eventos/${i}/id`, mensagem: `o id ${e.id} repete o do evento ${antes}` });
    else vistos.set(e.id, i);
    const anterior = i > 0 ? lista[i - 1] : undefined;
    if (quebrada || !isObj(anterior) || typeof anterior.seq !== "number" || typeof e.seq !== "number" || e.seq === anterior.seq - 1) return;
    quebrada = true;
    out.push({
      ponteiro: `/eventos/${i}/seq`,
      mensagem:
        `a sequência dos eventos está quebrada: ${String(anterior.id)} tem seq ${anterior.seq} e o seguinte, mais antigo, ` +
        `${String(e.id)}, tem seq ${e.seq} (esperado ${anterior.seq - 1})`,
    });
  });
  return out;
}
