import dados from "./dados.json" with { type: "json" };
import type { LeituraRomaneio, LinhaAbate, TotaisAbate, TotaisCarga, Desconto, Produto, Uf } from "../../../pipeline/domain/publicados.gerados.ts";
import { aleatorio } from "../../helpers/aleatorio.ts";

/**
 * The numbers of every corpus document, derived from dados.json in integer hundredths (kg, @,
 * sacas, %) and centavos, never typed by hand: arrobas = kg ÷ 15 and sacas = kg ÷ 60 rounded to
 * the centésimo, bruto = quantity × price rounded to the centavo, líquido = bruto − deductions.
 */

export type Esperado = Omit<LeituraRomaneio, "confianca" | "avisos">;

export interface ParteDoc { nome: string; documento: string }
export interface DescontoDoc { nome: string; rotulo: string; aliquota: number | null; valor: number }

export interface LinhaDoc { seq: number; brinco: string; sexo: "M" | "F"; kg: number; bandas: [number, number] | null; arrobas: number }

export interface AbateDoc {
  tipo: "abate"; id: string; modelo: string; data: string; produto: Produto; sexo: "M" | "F";
  comprador: ParteDoc; vendedor: ParteDoc; municipio: string; uf: Uf; fazenda: string;
  linhas: LinhaDoc[]; kg: number; arrobas: number; preco: number; bruto: number; descontos: DescontoDoc[]; liquido: number;
  /** how the total arrobas were rounded: per line and summed, or on the total kg */
  arredondamento: "linha" | "total";
}

export interface CargaDoc {
  tipo: "carga"; id: string; modelo: string; data: string; produto: Produto; placa: string;
  comprador: ParteDoc; vendedor: ParteDoc; municipio: string; uf: Uf;
  bruto_kg: number; tara_kg: number; umidade: number; desc_umidade_pct: number; desc_umidade_kg: number; impureza: number; desc_impureza_pct: number; desc_impureza_kg: number;
  liquido_kg: number; sacas: number; preco: number; bruto: number; descontos: DescontoDoc[]; liquido: number;
}

export type Doc = AbateDoc | CargaDoc;

/** a / b rounded half up, for non-negative integers */
export function divRound(a: number, b: number): number {
  return Math.floor((2 * a + b) / (2 * b));
}

function digitoCpf(d: number[]): number {
  const n = d.length + 1;
  const s = d.reduce((acc, x, i) => acc + x * (n - i), 0);
  const r = (s * 10) % 11;
  return r === 10 ? 0 : r;
}
function digitoCnpj(d: number[]): number {
  const pesos = d.length === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  const s = d.reduce((acc, x, i) => acc + x * pesos[i]!, 0);
  const r = s % 11;
  return r < 2 ? 0 : 11 - r;
}

/** A CPF (9 digits) or CNPJ (first 12 digits) base completed with valid check digits, formatted. */
export function documentoValido(base: string): string {
  if (base.length === 9) {
    const d = [...base].map(Number);
    d.push(digitoCpf(d));
    d.push(digitoCpf(d));
    const s = d.join("");
    return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
  }
  const d = [...base.slice(0, 12)].map(Number);
  d.push(digitoCnpj(d));
  d.push(digitoCnpj(d));
  const s = d.join("");
  return `${s.slice(0, 2)}.${s.slice(2, 5)}.${s.slice(5, 8)}/${s.slice(8, 12)}-${s.slice(12)}`;
}

/** Integer hundredths as a Brazilian number: 123456 -> "1.234,56"; casas 0 or 1 drop digits (the value must fit). */
export function br(h: number, casas: 0 | 1 | 2 = 2): string {
  const neg = h < 0;
  const a = Math.abs(h);
  const int = Math.floor(a / 100);
  const frac = String(a % 100).padStart(2, "0");
  if (casas < 2 && frac.slice(casas) !== "0".repeat(2 - casas)) throw new Error(`${h} não cabe em ${casas} casas`);
  const intTxt = String(int).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${neg ? "-" : ""}${intTxt}${casas ? "," + frac.slice(0, casas) : ""}`;
}

function descontos(bruto: number, funrural: number, senar: number, taxa: number | null, nomeTaxa: string, rotuloFun: (p: string) => string, rotuloSenar: (p: string) => string): DescontoDoc[] {
  const out: DescontoDoc[] = [];
  if (funrural) out.push({ nome: "Funrural", rotulo: rotuloFun(br(funrural)), aliquota: funrural, valor: divRound(bruto * funrural, 10000) });
  if (senar) out.push({ nome: "Senar", rotulo: rotuloSenar(br(senar)), aliquota: senar, valor: divRound(bruto * senar, 10000) });
  if (taxa) out.push({ nome: nomeTaxa, rotulo: nomeTaxa, aliquota: null, valor: taxa });
  return out;
}

const ROTULOS: Record<string, { fun: (p: string) => string; senar: (p: string) => string; taxa: string }> = {
  "abate-grande": { fun: (p) => `Funrural (${p}%)`, senar: (p) => `Senar (${p}%)`, taxa: "Taxa" },
  "abate-bandas": { fun: (p) => `Funrural ${p}%`, senar: (p) => `Senar ${p}%`, taxa: "Taxa de abate" },
  "abate-compacto": { fun: (p) => `(-) Funrural ${p}%`, senar: (p) => `(-) Senar ${p}%`, taxa: "Taxa" },
  "carga-cooperativa": { fun: (p) => `Funrural ${p}%`, senar: (p) => `Senar ${p}%`, taxa: "Taxa" },
  "carga-ticket": { fun: (p) => `Funrural ${p}%`, senar: (p) => `Senar ${p}%`, taxa: "Taxa de secagem" },
};

function abate(d: (typeof dados.abate)[number]): AbateDoc {
  const r = aleatorio(d.semente);
  const bandas = d.modelo === "abate-bandas";
  const linhas: LinhaDoc[] = [];
  for (let i = 0; i < d.cabecas; i++) {
    // weights in tenths of kg as the scales print them
    const decimos = d.kg_min * 10 + Math.floor(r() * (d.kg_max - d.kg_min) * 10);
    let par: [number, number] | null = null;
    if (bandas) {
      const a = Math.floor(decimos / 2) + Math.floor(r() * 17) - 8;
      par = [a * 10, (decimos - a) * 10];
    }
    const kg = decimos * 10;
    linhas.push({ seq: i + 1, brinco: String(100000 + Math.floor(r() * 899999)), sexo: d.sexo as "M" | "F", kg, bandas: par, arrobas: divRound(kg, 15) });
  }
  const kg = linhas.reduce((s, l) => s + l.kg, 0);
  const arredondamento = bandas ? "total" : "linha";
  const arrobas = arredondamento === "total" ? divRound(kg, 15) : linhas.reduce((s, l) => s + l.arrobas, 0);
  const bruto = divRound(arrobas * d.preco_arroba, 100);
  const rot = ROTULOS[d.modelo]!;
  const desc = descontos(bruto, d.funrural_pct, d.senar_pct, d.taxa, rot.taxa, rot.fun, rot.senar);
  return {
    tipo: "abate", id: d.id, modelo: d.modelo, data: d.data, produto: d.produto as Produto, sexo: d.sexo as "M" | "F",
    comprador: { nome: d.comprador.nome, documento: documentoValido(d.comprador.base) },
    vendedor: { nome: d.vendedor.nome, documento: documentoValido(d.vendedor.base) },
    municipio: d.municipio, uf: d.uf as Uf, fazenda: d.fazenda, linhas, kg, arrobas, preco: d.preco_arroba, bruto, descontos: desc,
    liquido: bruto - desc.reduce((s, x) => s + x.valor, 0), arredondamento,
  };
}

function carga(d: (typeof dados.carga)[number]): CargaDoc {
  const balanca = d.peso_bruto - d.tara;
  const descUmidPct = divRound((d.umidade_pct - d.umidade_base_pct) * d.umidade_fator, 100);
  const descImpPct = d.impureza_pct - d.impureza_base_pct;
  const du = divRound(balanca * descUmidPct, 10000);
  const di = divRound(balanca * descImpPct, 10000);
  const liquido = balanca - du - di;
  const sacas = divRound(liquido * 100, 60);
  const bruto = divRound(sacas * d.preco_saca, 100);
  const rot = ROTULOS[d.modelo]!;
  const desc = descontos(bruto, d.funrural_pct, d.senar_pct, d.taxa || null, rot.taxa, rot.fun, rot.senar);
  return {
    tipo: "carga", id: d.id, modelo: d.modelo, data: d.data, produto: d.produto as Produto, placa: d.placa,
    comprador: { nome: d.comprador.nome, documento: documentoValido(d.comprador.base) },
    vendedor: { nome: d.vendedor.nome, documento: documentoValido(d.vendedor.base) },
    municipio: d.municipio, uf: d.uf as Uf,
    bruto_kg: d.peso_bruto * 100, tara_kg: d.tara * 100, umidade: d.umidade_pct, desc_umidade_pct: descUmidPct, desc_umidade_kg: du * 100,
    impureza: d.impureza_pct, desc_impureza_pct: descImpPct, desc_impureza_kg: di * 100, liquido_kg: liquido * 100, sacas, preco: d.preco_saca, bruto,
    descontos: desc, liquido: bruto - desc.reduce((s, x) => s + x.valor, 0),
  };
}

export const DOCUMENTOS: Doc[] = [...dados.abate.map(abate), ...dados.carga.map(carga)];

const n = (h: number): number => h / 100;

/** The fields a perfect reading of the document returns. */
export function esperado(doc: Doc): Esperado {
  const base = {
    tipo: doc.tipo, data: doc.data, produto: doc.produto, uf: doc.uf, municipio: doc.municipio,
    comprador: { ...doc.comprador }, vendedor: { ...doc.vendedor },
  };
  const descs: Desconto[] = doc.descontos.map((x) => ({ nome: x.nome, valor: n(x.valor), aliquota_pct: x.aliquota === null ? null : n(x.aliquota) }));
  if (doc.tipo === "abate") {
    const linhas: LinhaAbate[] = doc.linhas.map((l) => ({
      identificacao: doc.modelo === "abate-compacto" ? String(l.seq).padStart(2, "0") : String(l.seq), sexo: l.sexo, peso_carcaca_kg: n(l.kg), bandas_kg: l.bandas ? [n(l.bandas[0]), n(l.bandas[1])] : null, arrobas: n(l.arrobas),
    }));
    const totais: TotaisAbate = {
      cabecas: doc.linhas.length, peso_carcaca_kg: n(doc.kg), arrobas: n(doc.arrobas), preco_arroba: n(doc.preco), valor_bruto: n(doc.bruto), descontos: descs, valor_liquido: n(doc.liquido),
    };
    return { ...base, linhas, totais };
  }
  const totais: TotaisCarga = {
    peso_bruto_kg: n(doc.bruto_kg), tara_kg: n(doc.tara_kg), umidade_pct: n(doc.umidade), desconto_umidade_kg: n(doc.desc_umidade_kg),
    impureza_pct: n(doc.impureza), desconto_impureza_kg: n(doc.desc_impureza_kg), peso_liquido_kg: n(doc.liquido_kg), sacas: n(doc.sacas),
    preco_saca: n(doc.preco), valor_bruto: n(doc.bruto), descontos: descs, valor_liquido: n(doc.liquido),
  };
  return { ...base, linhas: [], totais };
}
