import type { AvisoRomaneio, Desconto, LeituraRomaneio, LinhaAbate, Parte, Produto, TotaisAbate, TotaisCarga, Uf } from "../domain/publicados.gerados.ts";
import { ABATE_POR_SEXO } from "../domain/products.ts";
import { acharDocumento, datasNaLinha, digitosOcr, formatarBR, mulDivArredonda, mulDivTrunca, numeroBR, semAcento } from "./numeros.ts";

/**
 * Reading a romaneio: OCR text (or a PDF text layer) -> the fields of LeituraRomaneio, a
 * confidence per field and the cross-checks that failed. Pure, no Node APIs: the server and the
 * page run the same code. Every quantity is handled in integer hundredths and every amount in
 * integer centavos; a number that is not clearly there stays null.
 */

/** One word as the OCR read it, with its confidence (0..1) and the index of its line in `texto.split("\n")`. */
export interface PalavraOcr {
  texto: string;
  confianca: number;
  linha: number;
}

/** The text of a document: from OCR (with word confidences), a PDF text layer, or typed. */
export interface TextoLido {
  texto: string;
  origem: "ocr" | "pdf_texto" | "texto";
  palavras?: PalavraOcr[];
}

/**
 * Below this a field is shown as doubtful. Measured on the corpus and its degraded copies (654
 * totals read right, npm run bench -- romaneio): 90% of the right ones have 0.89 or more, and the
 * only wrong totals no check could catch (a phone photo read every "0" of the weights as "6", so
 * bruto − tara still matched) had 0.66 and 0.74.
 */
export const CONFIANCA_MINIMA = 0.8;

/** A number that OCR needed look-alike letters for ("O5", "3l0,00") is believed a little less. */
const FATOR_TROCA = 0.85;
/** What a failed cross-check leaves of the confidence of the fields it names. */
const FATOR_CONFERENCIA = 0.5;

const UFS = new Set<string>(["AC", "AL", "AP", "AM", "BA", "CE", "DF", "ES", "GO", "MA", "MT", "MS", "MG", "PA", "PB", "PR", "PE", "PI", "RJ", "RN", "RS", "RO", "RR", "SC", "SP", "SE", "TO"]);

interface Numero {
  /** integer hundredths */
  h: number;
  inicio: number;
  fim: number;
  pct: boolean;
  decimal: boolean;
  trocado: boolean;
  /** a look-alike before the first real digit ("|4", "l5,00") */
  colado?: boolean;
}

interface Texto {
  linhas: string[];
  norm: string[];
  /** word spans per line: [start, end, confidence] */
  spans: Array<Array<[number, number, number]>>;
  origem: TextoLido["origem"];
}

function preparar(t: TextoLido): Texto {
  const linhas = t.texto.replace(/\r/g, "").split("\n");
  const norm = linhas.map(semAcento);
  const spans: Texto["spans"] = linhas.map(() => []);
  if (t.palavras) {
    const cursor = linhas.map(() => 0);
    for (const p of t.palavras) {
      const l = linhas[p.linha];
      if (l === undefined || p.texto === "") continue;
      const i = l.indexOf(p.texto, cursor[p.linha]);
      if (i < 0) continue;
      spans[p.linha]!.push([i, i + p.texto.length, Math.max(0, Math.min(1, p.confianca))]);
      cursor[p.linha] = i + p.texto.length;
    }
  }
  return { linhas, norm, spans, origem: t.origem };
}

/** The OCR confidence of the words that make up characters [inicio, fim) of a line: the weakest one. */
function confianca(tx: Texto, linha: number, inicio: number, fim: number): number {
  if (tx.origem !== "ocr") return 1;
  const s = tx.spans[linha] ?? [];
  const dentro = s.filter(([a, b]) => a < fim && b > inicio);
  if (dentro.length > 0) return Math.min(...dentro.map((x) => x[2]));
  // OCR text without word confidences: known only as "read by OCR"
  return s.length ? Math.min(...s.map((x) => x[2])) : 0.7;
}

/**
 * The numbers of a line. "R$" glued to a number, "/@" read as "/6" after a price, "%" and "kg"
 * after a number, look-alike letters inside one: all tolerated. Dates are not numbers here.
 */
function numerosDaLinha(linha: string): Numero[] {
  const datas = datasNaLinha(linha);
  const out: Numero[] = [];
  const re = /[0-9OoIl|!][0-9OoIl|!.,]*/g;
  for (const m of linha.matchAll(re)) {
    const ini = m.index!;
    const antes = linha.slice(0, ini);
    // inside a word ("Bois", "CNPJ"), or the unit after a price ("320,00/6" is "/@")
    if (/[A-Za-zÀ-ÿ]$/.test(antes) && !/R\$$/.test(antes)) continue;
    if (/\d[,.]?\d*\/$/.test(antes)) continue;
    if (datas.some((d) => ini >= d.inicio && ini < d.fim)) continue;
    const tok = m[0].replace(/[.,]+$/, "");
    const fim = ini + tok.length;
    const depois = linha.slice(fim);
    // a CPF/CNPJ or a plate is not a quantity
    if (/^[/-]\d{2}/.test(depois) || /^-[0-9A-Z]/.test(depois) || (/^\/\d/.test(depois) && !tok.includes(","))) continue;
    if (/^[A-Za-zÀ-ÿ]/.test(depois) && !/^(kg|KG|Kg|sc|t\b)/.test(depois)) continue;
    const dig = digitosOcr(tok);
    if (dig === null) continue;
    const h = numeroBR(dig);
    if (h === null) continue;
    // a look-alike in front of real digits ("|4") is as often a table rule or a stray mark
    // glued to the number as a "1": believed much less than one inside a number
    const colado = /^[Il|!i][0-9]/.test(tok);
    out.push({ h, inicio: ini, fim, pct: /^\s*%/.test(depois), decimal: dig.includes(","), trocado: dig !== m[0].replace(/[.,]+$/, ""), colado });
  }
  // a thousands dot read as a space ("1 375,30"): one space, a group of exactly three digits, and
  // a label before (never at the start of a table row, where "1 301,70" is animal 1's weight)
  for (const m of linha.matchAll(/(?<=[A-Za-zÀ-ÿ$):]\s*)\d{1,3}(?: \d{3})+(?:,\d{2})?(?![\d,])/g)) {
    const ini = m.index!;
    const fim = ini + m[0].length;
    const dentro = out.filter((n) => n.inicio >= ini && n.fim <= fim);
    const h = numeroBR(m[0].replace(/ /g, ""));
    if (dentro.length < 2 || h === null) continue;
    const k = out.indexOf(dentro[0]!);
    out.splice(k, dentro.length, { h, inicio: ini, fim, pct: /^\s*%/.test(linha.slice(fim)), decimal: m[0].includes(","), trocado: true });
  }
  return out;
}

interface Achado {
  h: number;
  conf: number;
  linha: number;
}

function achado(tx: Texto, i: number, n: Numero): Achado {
  const c = confianca(tx, i, n.inicio, n.fim);
  return { h: n.h, conf: n.colado ? c * FATOR_TROCA * FATOR_TROCA : n.trocado ? c * FATOR_TROCA : c, linha: i };
}

type Campos = Record<string, Achado | undefined>;

/** The label of a line, lowercase without accents and without its numbers. */
function rotulo(norm: string, nums: Numero[]): string {
  let s = norm;
  for (const n of [...nums].reverse()) s = s.slice(0, n.inicio) + " " + s.slice(n.fim);
  return s.replace(/[“”"'|]/g, " ").replace(/\s+/g, " ").trim();
}

/**
 * Two label-and-value pairs merged on one line ("Sacas 60 kg: 551,40   Preço/saca: R$ 49,75"):
 * split at wide gaps where a new label starts; a gap followed by numbers only stays in its pair.
 */
function gruposDaLinha(linha: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let ini = 0;
  for (const m of linha.matchAll(/\s{3,}/g)) {
    const prox = linha.slice(m.index! + m[0].length);
    const seg = prox.split(/\s{3,}/)[0]!;
    const temRotulo = /[A-Za-zÀ-ÿ]{3,}/.test(seg.replace(/R\$|\bkg\b/gi, ""));
    const anterior = linha.slice(ini, m.index!);
    if (temRotulo && /\d/.test(anterior) && /[A-Za-zÀ-ÿ]{3,}/.test(anterior)) {
      out.push([ini, m.index!]);
      ini = m.index! + m[0].length;
    }
  }
  out.push([ini, linha.length]);
  return out;
}

function ehDesconto(r: string): boolean {
  return /funrural|senar|\btaxa|frete|inss|\bgta\b|contribui|fundersul|fethab|facs|\(-\)|^-/.test(r) && !/umidade|impureza/.test(r);
}

/**
 * A specks-of-noise token OCR leaves between a label and its value ("é", "o", ":", "—", "e."):
 * no letter or digit at all, or a single character. A two-letter token is debris only at the
 * end of a name and when it is not an abbreviation in capitals ("MS", "GTA" stay): a deduction's
 * name never ends in "de" or "o".
 */
function ehDetrito(tok: string, noFim: boolean): boolean {
  if (!/[\p{L}\p{N}]/u.test(tok)) return true;
  const letras = tok.replace(/[^\p{L}\p{N}]/gu, "");
  if (letras.length <= 1) return true;
  return noFim && letras.length === 2 && letras !== letras.toUpperCase();
}

/**
 * The name of a deduction as printed, without its rate, value and OCR debris. Tesseract (PSM 4
 * on a noisy copy) reads specks in the gap between a label and its value as stray letters
 * ("Taxa de abate      é    o      é   :   45,00"); the gap survives as a run of spaces
 * (preserve_interword_spaces), so a stretch after a wide gap with no word of three letters is
 * debris, and so are stray tokens left at either end (typed text, single-spaced).
 */
export function nomeDoDesconto(original: string): string {
  const limpo = original
    .replace(/[“”"|]/g, " ")
    .replace(/\(-\)|^\s*-\s*/g, " ")
    .replace(/\(?\s*[0-9OoIl.,]+\s*%\s*\)?/g, " ")
    .replace(/R\$.*$/, " ")
    .replace(/[0-9][0-9.,]*\s*$/, " ")
    .replace(/[:=]/g, " ");
  const trechos = limpo.split(/\s{3,}/).map((x) => x.trim()).filter((x) => x !== "");
  const comPalavra = trechos.filter((x) => /\p{L}{3}/u.test(x));
  const toks = (comPalavra.length ? comPalavra : trechos).join(" ").split(/\s+/).filter((x) => x !== "");
  while (toks.length > 1 && ehDetrito(toks[toks.length - 1]!, true)) toks.pop();
  while (toks.length > 1 && ehDetrito(toks[0]!, false)) toks.shift();
  const s = toks.length === 1 && !/\p{L}{2}/u.test(toks[0]!) ? "" : toks.join(" ");
  const n = semAcento(s);
  if (/funrural/.test(n)) return "Funrural";
  if (/senar/.test(n)) return "Senar";
  return s || "Desconto";
}

function lerTotais(tx: Texto, tipo: "abate" | "carga", inicio: number): { campos: Campos; descontos: Array<{ nome: string; valor: Achado | null; aliquota: Achado | null; linha: number }> } {
  const campos: Campos = {};
  const descontos: Array<{ nome: string; valor: Achado | null; aliquota: Achado | null; linha: number }> = [];
  const pegar = (k: string, a: Achado | undefined): void => {
    if (a && !campos[k]) campos[k] = a;
  };
  for (let i = inicio; i < tx.linhas.length; i++) {
    const todos = numerosDaLinha(tx.linhas[i]!);
    const grupos = gruposDaLinha(tx.linhas[i]!);
    for (const [g0, g1] of grupos) {
    let nums = todos.filter((n) => n.inicio >= g0 && n.fim <= g1);
    let iv = i;
    const r = rotulo(tx.norm[i]!.slice(g0, g1), nums.map((n) => ({ ...n, inicio: n.inicio - g0, fim: n.fim - g0 })));
    if (!/[a-z]/.test(r)) continue;
    // a label whose value went to the next line
    if (nums.length === 0 && grupos.length === 1 && i + 1 < tx.linhas.length) {
      const prox = numerosDaLinha(tx.linhas[i + 1]!);
      if (prox.length > 0 && !/[a-z]{2}/.test(rotulo(tx.norm[i + 1]!, prox).replace(/\b(r\$|kg)\b/g, ""))) {
        nums = prox;
        iv = i + 1;
      }
    }
    if (nums.length === 0) continue;
    const ultimo = achado(tx, iv, nums[nums.length - 1]!);
    const semPct = nums.filter((n) => !n.pct);
    const valor = semPct.length ? achado(tx, iv, semPct[semPct.length - 1]!) : undefined;
    if (tipo === "abate") {
      if (/cabeca|animais|total de animais/.test(r)) {
        // the number right after the label: another pair may share the line with no wide gap
        // ("Cabeças 4  Total @ 78,00"), and its number is not the head count
        const pos = iv === i ? g0 + tx.norm[i]!.slice(g0, g1).search(/cabeca|animais/) : -1;
        const n = nums.find((x) => x.inicio > pos) ?? nums[nums.length - 1]!;
        const cab = achado(tx, iv, n);
        if (cab.h % 100 === 0 && !n.decimal) pegar("cabecas", cab);
      } else if (/peso/.test(r) && /total/.test(r)) pegar("peso_carcaca_kg", ultimo);
      else if (/arroba|^total ?(de )?(@|&|e|6|©|o|a|\(e\)|\(@\))?$/.test(r) && !/pre[c]o|valor|r\$/.test(r)) pegar("arrobas", ultimo);
      else if (/bruto/.test(r)) pegar("valor_bruto", ultimo);
      else if (/\bliq(uido)?\b|a receber/.test(r)) pegar("valor_liquido", ultimo);
      else if (/preco|valor da|vlr\.? da/.test(r)) pegar("preco_arroba", ultimo);
      else if (ehDesconto(r)) descontos.push(desconto(tx, iv, i, nums, g0, g1));
    } else {
      if (/peso bruto/.test(r)) pegar("peso_bruto_kg", ultimo);
      else if (/\btara\b/.test(r)) pegar("tara_kg", ultimo);
      else if (/umidade|impureza/.test(r)) {
        const k = /umidade/.test(r) ? "umidade" : "impureza";
        const pct = nums.find((n) => n.pct) ?? (nums.length >= 2 ? nums[0] : undefined);
        if (pct) pegar(`${k}_pct`, achado(tx, iv, pct));
        const resto = nums.filter((n) => n !== pct);
        if (resto.length) pegar(`desconto_${k}_kg`, achado(tx, iv, resto[resto.length - 1]!));
      } else if (/peso liquido/.test(r)) pegar("peso_liquido_kg", ultimo);
      else if (/\bsacas?\b/.test(r) && !/pre[c]o|valor/.test(r)) {
        // "Sacas (60 kg) 519,80": the 60 is the size of the sack
        const q = nums.filter((n) => !(n.h === 6000 && /^\s*kg/i.test(tx.linhas[iv]!.slice(n.fim))));
        if (q.length) pegar("sacas", achado(tx, iv, q[q.length - 1]!));
      } else if (/bruto/.test(r)) pegar("valor_bruto", ultimo);
      else if (/\bliq(uido)?\b|a receber/.test(r) && !/peso/.test(r)) pegar("valor_liquido", ultimo);
      else if (/preco/.test(r)) pegar("preco_saca", ultimo);
      else if (ehDesconto(r)) descontos.push(desconto(tx, iv, i, nums, g0, g1));
    }
    void valor;
    }
  }
  return { campos, descontos };
}

function desconto(tx: Texto, iv: number, i: number, nums: Numero[], g0: number, g1: number): { nome: string; valor: Achado | null; aliquota: Achado | null; linha: number } {
  const pct = nums.find((n) => n.pct) ?? (nums.length >= 2 ? nums[0] : undefined);
  const resto = nums.filter((n) => n !== pct);
  return {
    nome: nomeDoDesconto(iv === i ? tx.linhas[i]!.slice(g0, g1) : tx.linhas[i]!),
    aliquota: pct ? achado(tx, iv, pct) : null,
    valor: resto.length ? achado(tx, iv, resto[resto.length - 1]!) : null,
    linha: iv,
  };
}

interface LinhaLida {
  linha: LinhaAbate;
  conf: Record<string, number>;
}

/** The animals' table: a line that starts with an order number and holds at least two weights. */
function lerLinhas(tx: Texto, bandas: boolean): { linhas: LinhaLida[]; fim: number } {
  const out: LinhaLida[] = [];
  let fim = 0;
  for (let i = 0; i < tx.linhas.length; i++) {
    const l = tx.linhas[i]!.replace(/^[\s“”"'|]+/, "");
    const desloc = tx.linhas[i]!.length - l.length;
    const m = l.match(/^([0-9OoIl|!]{1,4}|\d{5,12})\s+(.*)$/);
    if (!m) continue;
    const id = digitosOcr(m[1]!) ?? m[1]!.replace(/[Oo]/g, "0").replace(/[Il|!]/g, "1");
    if (!/^\d+$/.test(id)) continue;
    const resto = m[2]!;
    const nums = numerosDaLinha(tx.linhas[i]!).filter((n) => n.inicio >= desloc + m[1]!.length);
    const pesos = nums.filter((n) => n.decimal);
    if (pesos.length < 2) continue;
    if (/[a-z]{3,}/i.test(resto.replace(/macho|f[eê]mea|femea/gi, ""))) continue;
    const sx = resto.match(/(?:^|\s)(M+|F+|Macho|F[eê]mea|Femea)(?=\s|$)/i);
    const sexo = sx ? (/^m/i.test(sx[1]!) ? "M" : "F") : null;
    const conf: Record<string, number> = {};
    const a = (n: Numero | undefined, campo: string): number | null => {
      if (!n) return null;
      const x = achado(tx, i, n);
      conf[campo] = x.conf;
      return x.h / 100;
    };
    // which weight is which, from the right; a row that lost a column (OCR split the table)
    // keeps only what its numbers prove: kg ÷ 15 ≈ @, or banda A + banda B = carcaça
    const ehArroba = (kg: Numero, ar: Numero): boolean => Math.abs(mulDivArredonda(kg.h, 1, 15) - ar.h) <= 2;
    let kg: number | null = null;
    let arrobas: number | null = null;
    let par: number[] | null = null;
    const n = pesos.length;
    const [p4, p3, p2, p1] = [pesos[n - 4], pesos[n - 3], pesos[n - 2]!, pesos[n - 1]!];
    const banda = (x: Numero, y: Numero): void => {
      const ba = achado(tx, i, x);
      const bb = achado(tx, i, y);
      par = [ba.h / 100, bb.h / 100];
      conf["bandas_kg"] = Math.min(ba.conf, bb.conf);
    };
    if (!bandas || (p4 && p3)) {
      kg = a(p2, "peso_carcaca_kg");
      arrobas = a(p1, "arrobas");
      if (bandas && p4 && p3) banda(p4, p3);
    } else if (ehArroba(p2, p1)) {
      kg = a(p2, "peso_carcaca_kg");
      arrobas = a(p1, "arrobas");
    } else if (p3 && p3.h + p2.h === p1.h) {
      banda(p3, p2);
      kg = a(p1, "peso_carcaca_kg");
    } else if (n === 2) banda(p2, p1);
    conf["identificacao"] = confianca(tx, i, desloc, desloc + m[1]!.length);
    if (sexo) conf["sexo"] = sx ? confianca(tx, i, desloc + m[1]!.length, desloc + l.length) : 0;
    out.push({ linha: { identificacao: id, sexo, peso_carcaca_kg: kg, bandas_kg: par, arrobas }, conf });
    fim = i + 1;
  }
  return { linhas: out, fim };
}

function tipoDoTexto(norm: string): "abate" | "carga" | null {
  const abate = (norm.match(/\babate|carcaca|arroba|frigorif|\bbois?\b|\bvacas?\b|\bbanda\b|matadouro/g) ?? []).length;
  const carga = (norm.match(/\bcarga\b|graos|\bsoja\b|\bmilho\b|\btara\b|\bsacas?\b|umidade|impureza|armaz|pesagem de|cerealista/g) ?? []).length;
  if (abate === 0 && carga === 0) return null;
  if (abate === carga) return null;
  return abate > carga ? "abate" : "carga";
}

const ROTULO_VENDEDOR = /^(.*?)\b(fornecedor|produtor|vendedor|depositante|pecuarista|remetente|proprietario|criador)\b\s*[:.]?\s*/i;

function limparNome(s: string): string | null {
  const n = s
    .replace(/[“”"|]/g, "")
    .split(/\s{3,}/)[0]!
    .replace(/\s+[-–·+]\s+(cpf|cnpj|cnp|c\.?n\.?p\.?j).*$/i, "")
    .replace(/\s+(cpf|cnpj|cnp\)|cnpj\))\b.*$/i, "")
    .replace(/[\s,;:-]+$/, "")
    .replace(/\s+/g, " ")
    .trim();
  return n.length >= 3 ? n : null;
}

function lerParte(tx: Texto, linhaNome: number, nome: string | null, confNome: number, busca: number[]): { parte: Parte; conf: Record<string, number>; valido: boolean | null; linhaDoc: number } {
  const conf: Record<string, number> = {};
  if (nome) conf["nome"] = confNome;
  for (const i of busca) {
    const l = tx.linhas[i];
    if (l === undefined) continue;
    // from the label on, or the whole line
    const rot = l.search(/cpf|cnpj|cnp|c\.n\.p\.j|documento/i);
    const base = rot >= 0 ? rot : i === linhaNome ? -1 : 0;
    if (base < 0) continue;
    const d = acharDocumento(l.slice(base));
    if (!d) continue;
    conf["documento"] = confianca(tx, i, base + d.inicio, base + d.fim) * (d.valido ? 1 : FATOR_CONFERENCIA);
    return { parte: { nome, documento: d.documento }, conf, valido: d.valido, linhaDoc: i };
  }
  return { parte: { nome, documento: null }, conf, valido: null, linhaDoc: -1 };
}

/** Where the sale happened: "Unidade: Campo Grande - MS", "· Barra do Garças/MT", "Rio Verde (GO), 09 de...". */
function lerLocal(tx: Texto, ate: number): { municipio: string; uf: Uf; conf: number } | null {
  const achados: Array<{ municipio: string; uf: Uf; conf: number; unidade: boolean }> = [];
  for (let i = 0; i < Math.min(ate, tx.linhas.length); i++) {
    // the buyer's head office ("Matriz: São Paulo - SP") is not where the cattle or grain was
    // delivered, and its state's price is not this sale's reference
    if (/procedencia|fazenda|origem|sitio|produtor|fornecedor|vendedor|depositante|matriz|\bsede\b|escritorio/.test(tx.norm[i]!)) continue;
    const l = tx.linhas[i]!;
    for (const m of l.matchAll(/(?:\s+[-–]\s+|\/|\s*\()([A-Z]{2})(?![A-Za-z0-9])/g)) {
      if (!UFS.has(m[1]!)) continue;
      const antes = l.slice(0, m.index!);
      const partes = antes.split(/\s[-–·+:,]\s|[:·+]|\s{3,}/);
      let mun = partes[partes.length - 1]!.replace(/^\s*(unidade|filial|local|cidade|municipio|munic[ií]pio)\b[:\s]*/i, "").trim();
      mun = mun.replace(/[“”"|]/g, "").trim();
      if (!/^[A-ZÀ-Ú][A-Za-zÀ-ÿ' .-]+$/.test(mun) || /\d/.test(mun)) continue;
      const ini = l.indexOf(mun);
      achados.push({
        municipio: mun,
        uf: m[1]! as Uf,
        conf: Math.min(confianca(tx, i, ini, ini + mun.length), confianca(tx, i, m.index!, m.index! + m[0].length)),
        unidade: /unidade|filial|planta|local/.test(tx.norm[i]!),
      });
      break;
    }
  }
  const escolhido = achados.find((a) => a.unidade) ?? achados[0];
  if (!escolhido) return null;
  // two places in different states above the seller, neither labelled as the plant over the
  // other (a head office without its label, a branch): which one is the sale's is not known,
  // and the UF picks the reference series
  if (achados.some((a) => a.uf !== escolhido.uf && (a.unidade || !escolhido.unidade))) return { ...escolhido, conf: escolhido.conf * FATOR_CONFERENCIA };
  return escolhido;
}

const POSTO_SEM_ROTULO = 2;
const POSTO_EXCLUIDA = 9;

/**
 * How much a date's label says it is the sale's: 0 for the slaughter, load, entry or weighing
 * date, 1 for an issue date or a plain "Data", 2 for no label ("Campo Grande (MS), 05 de agosto
 * de 2026"), and excluded for a due, payment, birth or validity date. Only the label nearest the
 * date counts (the text after the last wide gap): in "Romaneio de abate   Vencimento: 20/08/2026"
 * the "abate" belongs to the title.
 */
function postoDaData(antes: string): number {
  const trechos = antes.split(/\s{3,}|\|/).filter((x) => /[a-z]{2}/.test(x));
  const rot = (trechos[trechos.length - 1] ?? "").slice(-30);
  if (/venc|pagamento|\bpgto|nascimento|validade|previs|impress/.test(rot)) return POSTO_EXCLUIDA;
  if (/abate|carga|entrada|pesagem|embarque/.test(rot)) return 0;
  if (/emiss|\bdata\b|\bdt\b/.test(rot)) return 1;
  return POSTO_SEM_ROTULO;
}

/** Reads the fields of a romaneio from its text; then runs the cross-checks (conferirLeitura). */
export function lerRomaneio(t: TextoLido): LeituraRomaneio {
  const tx = preparar(t);
  const todo = tx.norm.join("\n");
  const conf: Record<string, number> = {};
  const avisos: AvisoRomaneio[] = [];
  const tipo = tipoDoTexto(todo);

  // date: the best-labelled one (see postoDaData), else the first unlabelled one
  let data: string | null = null;
  let dataInvalida: string | null = null;
  const datas: Array<{ i: number; d: ReturnType<typeof datasNaLinha>[number]; posto: number }> = [];
  const datasPorLinha = tx.linhas.map((l) => datasNaLinha(l));
  datasPorLinha.forEach((ds, i) => {
    ds.forEach((d, k) => {
      let antes = tx.norm[i]!.slice(k > 0 ? ds[k - 1]!.fim : 0, d.inicio);
      // a label alone on the line above its date ("Data do abate" / "05/08/2026")
      if (k === 0 && !/[a-z]{2}/.test(antes) && i > 0 && datasPorLinha[i - 1]!.length === 0) antes = tx.norm[i - 1]!;
      datas.push({ i, d, posto: postoDaData(antes) });
    });
  });
  const candidatas = datas.filter((x) => x.posto < POSTO_EXCLUIDA);
  const melhor = Math.min(...candidatas.map((x) => x.posto));
  const escolhida = candidatas.find((x) => x.posto === melhor);
  if (escolhida) {
    if (escolhida.d.data) {
      data = escolhida.d.data;
      conf["data"] = confianca(tx, escolhida.i, escolhida.d.inicio, escolhida.d.fim);
    } else dataInvalida = escolhida.d.texto.trim();
    // two labelled dates of the same weight that disagree ("Data: 05/08", "Emissão: 12/08"):
    // which one is the sale's is not known, so the comparison must not trust the pick
    const outras = [...new Set(candidatas.filter((x) => x.posto === melhor && melhor < POSTO_SEM_ROTULO && x.d.texto !== escolhida.d.texto && x.d.data !== escolhida.d.data).map((x) => x.d.texto.trim()))];
    if (outras.length) {
      if (conf["data"] !== undefined) conf["data"] = conf["data"] * FATOR_CONFERENCIA;
      avisos.push({ codigo: "data_ambigua", mensagem: `O documento traz mais de uma data com rótulo parecido (${[escolhida.d.texto.trim(), ...outras].map((x) => `"${x}"`).join(", ")}): confira a data da venda.`, campos: ["data"] });
    }
  }
  if (dataInvalida) avisos.push({ codigo: "data_invalida", mensagem: `A data "${dataInvalida}" não existe no calendário.`, campos: ["data"] });

  // the seller's line; everything above it is the buyer's letterhead
  const iVend = tx.linhas.findIndex((l) => ROTULO_VENDEDOR.test(semAcento(l)) && /:|\s{2}/.test(l));
  let vendedor: Parte | null = null;
  let comprador: Parte | null = null;
  let docsInvalidos: string[] = [];
  if (iVend >= 0) {
    const l = tx.linhas[iVend]!;
    const m = semAcento(l).match(ROTULO_VENDEDOR)!;
    const ini = m[0].length;
    const nome = limparNome(l.slice(ini));
    const p = lerParte(tx, iVend, nome, nome ? confianca(tx, iVend, ini, ini + nome.length) : 0, [iVend, iVend + 1, iVend + 2]);
    vendedor = p.parte;
    for (const [k, v] of Object.entries(p.conf)) conf[`vendedor.${k}`] = v;
    if (p.valido === false) docsInvalidos.push("vendedor.documento");
  }
  // the letterhead: the first line that is a name (no label, no number before a CNPJ)
  const iNome = tx.linhas.findIndex((l) => {
    const antes = l.split(/\b(?:CNPJ|CNP\)|CNPJ\))/)[0]!;
    return /[A-Za-zÀ-ÿ]{3}/.test(antes) && numerosDaLinha(antes).length === 0 && !/^[^:]{0,30}:/.test(antes) && !/romaneio|ticket|pesagem/i.test(antes);
  });
  if (iNome >= 0 && iNome !== iVend) {
    const l = tx.linhas[iNome]!;
    const nome = limparNome(l.replace(/^[\s“”"|]+/, ""));
    const ini = nome ? l.indexOf(nome) : 0;
    const limite = iVend >= 0 ? iVend : Math.min(tx.linhas.length, iNome + 4);
    const busca: number[] = [];
    for (let i = iNome; i < limite; i++) busca.push(i);
    const p = lerParte(tx, -1, nome, nome ? confianca(tx, iNome, ini, ini + nome.length) : 0, busca);
    comprador = p.parte;
    for (const [k, v] of Object.entries(p.conf)) conf[`comprador.${k}`] = v;
    if (p.valido === false) docsInvalidos.push("comprador.documento");
  }
  docsInvalidos = [...new Set(docsInvalidos)];
  for (const c of docsInvalidos) {
    const doc = c.startsWith("vendedor") ? vendedor?.documento : comprador?.documento;
    avisos.push({ codigo: "documento_invalido", mensagem: `O CPF/CNPJ "${doc}" (${c.startsWith("vendedor") ? "vendedor" : "comprador"}) não tem dígitos verificadores válidos: confira no documento.`, campos: [c] });
  }

  const local = lerLocal(tx, iVend >= 0 ? iVend : 6);
  if (local) {
    conf["municipio"] = local.conf;
    conf["uf"] = local.conf;
  }

  // product
  let produto: Produto | null = null;
  let linhas: LinhaLida[] = [];
  let totais: TotaisAbate | TotaisCarga | null = null;
  const linhaDe: Record<string, number> = {};
  if (tipo === "abate") {
    const bandas = /\bbanda/.test(todo);
    const lidas = lerLinhas(tx, bandas);
    linhas = lidas.linhas;
    const sexos = new Set(linhas.map((x) => x.linha.sexo).filter((s) => s !== null));
    const femea = /\bvacas?\b|\bfemeas?\b|novilhas? gordas?/.test(todo) || (sexos.size === 1 && sexos.has("F"));
    const macho = /\bbois?\b|\bmachos?\b|\bnovilhos?\b/.test(todo) || (sexos.size === 1 && sexos.has("M"));
    produto = femea && !macho ? ABATE_POR_SEXO.F : macho && !femea ? ABATE_POR_SEXO.M : null;
    const { campos, descontos } = lerTotais(tx, "abate", lidas.fim);
    totais = {
      cabecas: campos["cabecas"] ? campos["cabecas"].h / 100 : null,
      peso_carcaca_kg: q(campos["peso_carcaca_kg"]),
      arrobas: q(campos["arrobas"]),
      preco_arroba: q(campos["preco_arroba"]),
      valor_bruto: q(campos["valor_bruto"]),
      descontos: descontos.map(paraDesconto),
      valor_liquido: q(campos["valor_liquido"]),
    };
    for (const [k, v] of Object.entries(campos)) if (v) (conf[`totais.${k}`] = v.conf), (linhaDe[`totais.${k}`] = v.linha);
    descontosConf(descontos, conf, linhaDe);
    linhas.forEach((x, i) => {
      for (const [k, v] of Object.entries(x.conf)) conf[`linhas[${i}].${k}`] = v;
    });
  } else if (tipo === "carga") {
    const p = todo.match(/\b(soja|milho)\b/g) ?? [];
    const s = new Set(p);
    produto = s.size === 1 ? ([...s][0] as Produto) : null;
    const { campos, descontos } = lerTotais(tx, "carga", 0);
    totais = {
      peso_bruto_kg: q(campos["peso_bruto_kg"]),
      tara_kg: q(campos["tara_kg"]),
      umidade_pct: q(campos["umidade_pct"]),
      desconto_umidade_kg: q(campos["desconto_umidade_kg"]),
      impureza_pct: q(campos["impureza_pct"]),
      desconto_impureza_kg: q(campos["desconto_impureza_kg"]),
      peso_liquido_kg: q(campos["peso_liquido_kg"]),
      sacas: q(campos["sacas"]),
      preco_saca: q(campos["preco_saca"]),
      valor_bruto: q(campos["valor_bruto"]),
      descontos: descontos.map(paraDesconto),
      valor_liquido: q(campos["valor_liquido"]),
    };
    for (const [k, v] of Object.entries(campos)) if (v) (conf[`totais.${k}`] = v.conf), (linhaDe[`totais.${k}`] = v.linha);
    descontosConf(descontos, conf, linhaDe);
  }
  // a text that stops before the net value was cut (a torn photo, a page missing): the number
  // on its last line may be cut too ("Desc.: 6" of "68 kg"), so it is not believed
  if (totais && totais.valor_liquido === null) {
    const ultima = tx.linhas.map((l) => l.trim() !== "").lastIndexOf(true);
    for (const [k, a] of Object.entries(linhaDe)) if (a === ultima && conf[k] !== undefined) conf[k] = conf[k]! * FATOR_CONFERENCIA * FATOR_TROCA;
  }
  if (tipo) conf["tipo"] = 1;
  if (produto) conf["produto"] = 1;

  const leitura: LeituraRomaneio = {
    tipo,
    data,
    produto,
    uf: local?.uf ?? null,
    municipio: local?.municipio ?? null,
    comprador,
    vendedor,
    linhas: linhas.map((x) => x.linha),
    totais,
    confianca: conf,
    avisos: [],
  };
  leitura.avisos = avisos;
  const conferencias = conferirLeitura(leitura);
  for (const a of conferencias) {
    if (a.codigo === "campo_ausente" || a.codigo === "tipo_desconhecido") continue;
    for (const c of a.campos) if (conf[c] !== undefined) conf[c] = arred3(conf[c]! * FATOR_CONFERENCIA);
  }
  // a number no check could reach (its partner unread) is only as good as the OCR: a "R$ 32500"
  // that lost its comma, with the gross value unread, would otherwise go out with full confidence
  const conferidos = camposConferidos(leitura);
  for (const c of camposConferiveis(leitura)) if (!conferidos.has(c) && conf[c] !== undefined) conf[c] = Math.min(conf[c]!, CONFIANCA_MINIMA) * FATOR_CONFERENCIA;
  // an animal's numbers no check reaches: a row whose carcass and arrobas columns OCR lost keeps
  // bands nothing adds up, and a weight without its arrobas is only summed when every row has one
  const ta = leitura.totais;
  if (ta && ehTotaisAbate(ta)) {
    const somaKg = ta.peso_carcaca_kg !== null && leitura.linhas.every((x) => x.peso_carcaca_kg !== null);
    const somaArr = ta.arrobas !== null && leitura.linhas.every((x) => x.arrobas !== null);
    leitura.linhas.forEach((x, i) => {
      const sem: string[] = [];
      if (x.bandas_kg !== null && x.peso_carcaca_kg === null) sem.push("bandas_kg");
      if (x.peso_carcaca_kg !== null && x.arrobas === null && x.bandas_kg === null && !somaKg) sem.push("peso_carcaca_kg");
      if (x.arrobas !== null && x.peso_carcaca_kg === null && !somaArr) sem.push("arrobas");
      for (const k of sem) {
        const c = `linhas[${i}].${k}`;
        if (conf[c] !== undefined) conf[c] = Math.min(conf[c]!, CONFIANCA_MINIMA) * FATOR_CONFERENCIA;
      }
    });
  }
  // the moisture and impurity rates of a grain load: no check ever reaches them (the kg each one
  // discounts follow the buyer's own table of base and factor), so a digit OCR got wrong ("15,30%"
  // for 15,80%) would go out believed; a text layer is the issuer's own text
  if (tx.origem === "ocr") for (const c of ["totais.umidade_pct", "totais.impureza_pct"]) if (conf[c] !== undefined) conf[c] = Math.min(conf[c]!, CONFIANCA_MINIMA) * FATOR_CONFERENCIA;
  for (const k of Object.keys(conf)) conf[k] = arred3(conf[k]!);
  leitura.avisos = [...avisos, ...conferencias];
  return leitura;
}

function arred3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function q(a: Achado | undefined): number | null {
  return a ? a.h / 100 : null;
}

function paraDesconto(d: { nome: string; valor: Achado | null; aliquota: Achado | null }): Desconto {
  return { nome: d.nome, valor: d.valor ? d.valor.h / 100 : null, aliquota_pct: d.aliquota ? d.aliquota.h / 100 : null };
}

function descontosConf(ds: Array<{ valor: Achado | null; aliquota: Achado | null }>, conf: Record<string, number>, linhaDe: Record<string, number>): void {
  ds.forEach((d, i) => {
    if (d.valor) (conf[`totais.descontos[${i}].valor`] = d.valor.conf), (linhaDe[`totais.descontos[${i}].valor`] = d.valor.linha);
    if (d.aliquota) (conf[`totais.descontos[${i}].aliquota_pct`] = d.aliquota.conf), (linhaDe[`totais.descontos[${i}].aliquota_pct`] = d.aliquota.linha);
  });
}

/** The numeric totals some cross-check can confirm, as read (not null). */
function camposConferiveis(l: LeituraRomaneio): string[] {
  const t = l.totais;
  if (!t) return [];
  const ks = ehTotaisAbate(t)
    ? (["cabecas", "peso_carcaca_kg", "arrobas", "preco_arroba", "valor_bruto", "valor_liquido"] as const).filter((k) => t[k] !== null)
    : (["peso_bruto_kg", "tara_kg", "desconto_umidade_kg", "desconto_impureza_kg", "peso_liquido_kg", "sacas", "preco_saca", "valor_bruto", "valor_liquido"] as const).filter((k) => t[k] !== null);
  const out = ks.map((k) => `totais.${k}`);
  t.descontos.forEach((d, i) => {
    if (d.valor !== null) out.push(`totais.descontos[${i}].valor`);
    if (d.aliquota_pct !== null) out.push(`totais.descontos[${i}].aliquota_pct`);
  });
  return out;
}

/**
 * The totals covered by at least one cross-check that could run (every partner read), whether
 * it passed or not (a failed one names its fields in an aviso). Mirrors conferirLeitura. Without
 * animal rows, kg ÷ 15 confirms only an exact rounding or truncation: the drift allowed for
 * arrobas rounded per animal would also let a kg total one digit off through.
 */
function camposConferidos(l: LeituraRomaneio): Set<string> {
  const s = new Set<string>();
  const t = l.totais;
  if (!t) return s;
  const add = (...cs: string[]): void => cs.forEach((c) => s.add(c));
  const nn = (x: number | null): x is number => x !== null;
  // a check that accepts the centésimo rounded or truncated cannot tell the two apart: where they
  // differ, a last digit misread from one to the other ("46,45" for 46,46) passes it, so such a
  // check confirms its result only where both ways give the same number
  const umSo = (a: number, b: number, d: number): boolean => mulDivArredonda(a, b, d) === mulDivTrunca(a, b, d);
  if (ehTotaisAbate(t)) {
    const rows = l.linhas.length > 0;
    if (rows && nn(t.cabecas)) add("totais.cabecas");
    if (rows && l.linhas.every((x) => x.peso_carcaca_kg !== null) && nn(t.peso_carcaca_kg)) add("totais.peso_carcaca_kg");
    if (rows && l.linhas.every((x) => x.arrobas !== null) && nn(t.arrobas)) add("totais.arrobas");
    // kg ÷ 15 to the centésimo (animal rows whose numbers OCR lost confirm nothing): it confirms
    // the arrobas, and the kg only when they are exactly arrobas × 15, since a few centésimos of
    // kg ("1.167,66" for 1.167,60) move kg ÷ 15 by less than a centésimo of arroba
    if (nn(t.arrobas) && nn(t.peso_carcaca_kg)) {
      const kg = h(t.peso_carcaca_kg);
      const a = h(t.arrobas);
      if ((a === mulDivArredonda(kg, 1, 15) || a === mulDivTrunca(kg, 1, 15)) && umSo(kg, 1, 15)) add("totais.arrobas");
      if (kg === 15 * a) add("totais.peso_carcaca_kg");
    }
    if (nn(t.arrobas) && nn(t.preco_arroba) && nn(t.valor_bruto)) {
      add("totais.arrobas", "totais.preco_arroba");
      if (umSo(h(t.arrobas), h(t.preco_arroba), 100)) add("totais.valor_bruto");
    }
  } else {
    const partes = [t.peso_bruto_kg, t.tara_kg, t.desconto_umidade_kg, t.desconto_impureza_kg, t.peso_liquido_kg];
    if (partes.every(nn)) add("totais.peso_bruto_kg", "totais.tara_kg", "totais.desconto_umidade_kg", "totais.desconto_impureza_kg", "totais.peso_liquido_kg");
    if (nn(t.peso_liquido_kg) && nn(t.sacas)) {
      add("totais.peso_liquido_kg");
      if (umSo(h(t.peso_liquido_kg), 1, 60)) add("totais.sacas");
    }
    if (nn(t.sacas) && nn(t.preco_saca) && nn(t.valor_bruto)) {
      add("totais.sacas", "totais.preco_saca");
      if (umSo(h(t.sacas), h(t.preco_saca), 100)) add("totais.valor_bruto");
    }
  }
  if (nn(t.valor_bruto) && nn(t.valor_liquido) && t.descontos.every((d) => d.valor !== null)) {
    add("totais.valor_bruto", "totais.valor_liquido", ...t.descontos.map((_, i) => `totais.descontos[${i}].valor`));
  }
  // a deduction's printed rate: it confirms the rate and, unambiguous, the deduction; not the
  // gross, whose last centavos barely move 1,5% of it
  t.descontos.forEach((d, i) => {
    if (nn(d.valor) && nn(d.aliquota_pct) && nn(t.valor_bruto)) {
      add(`totais.descontos[${i}].aliquota_pct`);
      if (umSo(h(t.valor_bruto), h(d.aliquota_pct), 10000)) add(`totais.descontos[${i}].valor`);
    }
  });
  return s;
}

/** A JSON number (at most two decimals) back to integer hundredths. */
function h(x: number): number {
  return Math.round(x * 100);
}

const fmt = formatarBR;

function ehTotaisAbate(t: TotaisAbate | TotaisCarga): t is TotaisAbate {
  return "arrobas" in t;
}

/** What only the reading of the text can tell, which no re-check of the fields could find again. */
const SO_DA_LEITURA: ReadonlySet<AvisoRomaneio["codigo"]> = new Set(["data_ambigua", "data_invalida", "documento_invalido"]);

/**
 * The avisos after a person edits one field on the page: the cross-checks on the fields as they
 * now stand, plus what only the reading could say (two dates, a date that does not exist, a
 * CPF/CNPJ's check digits), kept until the person edits the field it is about.
 */
export function reconferir(l: LeituraRomaneio, campoEditado: string): AvisoRomaneio[] {
  const mantidos = l.avisos.filter((a) => SO_DA_LEITURA.has(a.codigo) && !a.campos.includes(campoEditado));
  return [...mantidos, ...conferirLeitura({ ...l, avisos: mantidos })];
}

/**
 * The cross-checks alone, on fields as they stand (reconferir re-runs them after the user edits a
 * field). Every relation is checked in integer hundredths/centavos; a document may round to the
 * centésimo or truncate it, and may round arrobas per animal and sum, or round the total.
 */
export function conferirLeitura(l: LeituraRomaneio): AvisoRomaneio[] {
  const av: AvisoRomaneio[] = [];
  if (l.tipo === null) av.push({ codigo: "tipo_desconhecido", mensagem: "Não foi possível saber se é um romaneio de abate (gado) ou de carga (grãos).", campos: ["tipo"] });
  const t = l.totais;
  const ausentes: string[] = [];
  if (l.data === null && !l.avisos.some((a) => a.codigo === "data_invalida")) ausentes.push("data");
  if (t && ehTotaisAbate(t)) {
    const kgs = l.linhas.map((x) => x.peso_carcaca_kg);
    if (t.cabecas !== null && l.linhas.length > 0 && l.linhas.length !== t.cabecas) {
      av.push({ codigo: "cabecas_linhas", mensagem: `O romaneio diz ${t.cabecas} cabeças, mas foram lidas ${l.linhas.length} linhas de animais.`, campos: ["totais.cabecas"] });
    }
    // one system computes every animal's arrobas the same way, rounding or truncating the
    // centésimo: a row that matches only the other way is a misread (a lost last digit, "20,6"
    // for 20,61, is exactly the truncation of 309,1 kg ÷ 15)
    const modo = l.linhas.map((x) => {
      if (x.peso_carcaca_kg === null || x.arrobas === null) return null;
      const kg = h(x.peso_carcaca_kg);
      const a = h(x.arrobas);
      const r = mulDivArredonda(kg, 1, 15);
      const tr = mulDivTrunca(kg, 1, 15);
      return r === tr ? null : a === r ? "arredonda" : a === tr ? "trunca" : null;
    });
    const nArred = modo.filter((m) => m === "arredonda").length;
    const nTrunca = modo.filter((m) => m === "trunca").length;
    const fora = nArred > 0 && nTrunca > 0 ? (nArred > nTrunca ? ["trunca"] : nTrunca > nArred ? ["arredonda"] : ["arredonda", "trunca"]) : [];
    // the way the rows show, when they show only one: the total is held to it too
    const modoDoc = nArred > 0 && nTrunca === 0 ? "arredonda" : nTrunca > 0 && nArred === 0 ? "trunca" : null;
    l.linhas.forEach((x, i) => {
      if (x.peso_carcaca_kg !== null && x.arrobas !== null && fora.includes(modo[i]!)) {
        const kg = h(x.peso_carcaca_kg);
        const outro = modo[i] === "trunca" ? mulDivArredonda(kg, 1, 15) : mulDivTrunca(kg, 1, 15);
        const como = modo[i] === "trunca" ? "arredondadas" : "truncadas";
        av.push({
          codigo: "arrobas_kg",
          mensagem: `Animal ${x.identificacao ?? i + 1}: ${fmt(kg)} kg ÷ 15 = ${fmt(outro)} @ com as arrobas ${como}, como nas outras linhas, mas a linha diz ${fmt(h(x.arrobas))} @.`,
          campos: [`linhas[${i}].peso_carcaca_kg`, `linhas[${i}].arrobas`],
        });
      }
      if (x.bandas_kg && x.peso_carcaca_kg !== null) {
        const s = h(x.bandas_kg[0]!) + h(x.bandas_kg[1]!);
        if (s !== h(x.peso_carcaca_kg)) {
          av.push({ codigo: "bandas", mensagem: `Animal ${x.identificacao ?? i + 1}: banda A ${fmt(h(x.bandas_kg[0]!))} kg + banda B ${fmt(h(x.bandas_kg[1]!))} kg = ${fmt(s)} kg, mas a carcaça diz ${fmt(h(x.peso_carcaca_kg))} kg.`, campos: [`linhas[${i}].bandas_kg`, `linhas[${i}].peso_carcaca_kg`] });
        }
      }
      if (x.peso_carcaca_kg !== null && x.arrobas !== null) {
        const kg = h(x.peso_carcaca_kg);
        const a = h(x.arrobas);
        if (a !== mulDivArredonda(kg, 1, 15) && a !== mulDivTrunca(kg, 1, 15)) {
          av.push({ codigo: "arrobas_kg", mensagem: `Animal ${x.identificacao ?? i + 1}: ${fmt(kg)} kg ÷ 15 = ${fmt(mulDivArredonda(kg, 1, 15))} @, mas a linha diz ${fmt(a)} @.`, campos: [`linhas[${i}].peso_carcaca_kg`, `linhas[${i}].arrobas`] });
        }
      }
    });
    const todasKg = l.linhas.length > 0 && kgs.every((x) => x !== null);
    if (todasKg && t.peso_carcaca_kg !== null) {
      const s = kgs.reduce<number>((acc, x) => acc + h(x!), 0);
      if (s !== h(t.peso_carcaca_kg)) {
        av.push({ codigo: "soma_linhas", mensagem: `Os pesos dos animais somam ${fmt(s)} kg, mas o total diz ${fmt(h(t.peso_carcaca_kg))} kg.`, campos: ["totais.peso_carcaca_kg", ...l.linhas.map((_, i) => `linhas[${i}].peso_carcaca_kg`)] });
      }
    }
    // the total's arrobas as kg ÷ 15 the document's way ("77,10" of 1.156,6 kg truncated, in a
    // document whose rows round, is 77,11 with its last digit lost)
    const doModo = (a: number, r: number, tr: number): boolean => (modoDoc !== "trunca" && a === r) || (modoDoc !== "arredonda" && a === tr);
    const arrLinhas = l.linhas.map((x) => x.arrobas);
    const todasArr = l.linhas.length > 0 && arrLinhas.every((x) => x !== null);
    const somaArr = todasArr ? arrLinhas.reduce<number>((acc, x) => acc + h(x!), 0) : null;
    if (t.arrobas !== null) {
      const a = h(t.arrobas);
      if (t.peso_carcaca_kg !== null) {
        const kg = h(t.peso_carcaca_kg);
        const r = mulDivArredonda(kg, 1, 15);
        const tr = mulDivTrunca(kg, 1, 15);
        // rounding per animal and summing may drift a few centésimos from rounding the total
        // (each animal's rounding moves the sum by at most half a centésimo)
        const n = t.cabecas ?? l.linhas.length;
        const porLinha = somaArr !== null ? a === somaArr && Math.abs(a - r) <= l.linhas.length : n > 0 && Math.abs(a - r) <= Math.max(1, Math.floor(n / 2));
        if (!doModo(a, r, tr) && !porLinha) {
          const perto = Math.abs(a - r) === 1 ? " (diferença de um centésimo: o documento parece arredondar de outro jeito, por animal ou truncando)" : "";
          av.push({ codigo: "arrobas_kg", mensagem: `${fmt(kg)} kg ÷ 15 = ${fmt(r)} @, mas o total diz ${fmt(a)} @${perto}.`, campos: ["totais.peso_carcaca_kg", "totais.arrobas"] });
        }
      }
      if (somaArr !== null && somaArr !== a) {
        const kgOk = t.peso_carcaca_kg !== null && doModo(a, mulDivArredonda(h(t.peso_carcaca_kg), 1, 15), mulDivTrunca(h(t.peso_carcaca_kg), 1, 15));
        // the total rounded from the total kg legitimately differs from the sum of rounded lines
        if (!(kgOk && Math.abs(somaArr - a) <= l.linhas.length && todasKg)) {
          av.push({ codigo: "soma_linhas", mensagem: `As arrobas dos animais somam ${fmt(somaArr)} @, mas o total diz ${fmt(a)} @.`, campos: ["totais.arrobas", ...l.linhas.map((_, i) => `linhas[${i}].arrobas`)] });
        }
      }
    }
    brutoPreco(av, t.arrobas, t.preco_arroba, t.valor_bruto, "arrobas", "@", "preco_arroba");
    liquidoDescontos(av, t.valor_bruto, t.descontos, t.valor_liquido);
    for (const k of ["cabecas", "peso_carcaca_kg", "arrobas", "preco_arroba", "valor_bruto", "valor_liquido"] as const) if (t[k] === null) ausentes.push(`totais.${k}`);
  } else if (t) {
    const partes = [t.peso_bruto_kg, t.tara_kg, t.desconto_umidade_kg, t.desconto_impureza_kg];
    if (t.peso_liquido_kg !== null && partes.every((x) => x !== null)) {
      const [b, ta, du, di] = partes.map((x) => h(x!)) as [number, number, number, number];
      const esperado = b - ta - du - di;
      if (esperado !== h(t.peso_liquido_kg)) {
        av.push({ codigo: "peso_liquido", mensagem: `Peso bruto ${fmt(b)} kg − tara ${fmt(ta)} kg − umidade ${fmt(du)} kg − impureza ${fmt(di)} kg = ${fmt(esperado)} kg, mas o peso líquido diz ${fmt(h(t.peso_liquido_kg))} kg.`, campos: ["totais.peso_bruto_kg", "totais.tara_kg", "totais.desconto_umidade_kg", "totais.desconto_impureza_kg", "totais.peso_liquido_kg"] });
      }
    }
    if (t.peso_liquido_kg !== null && t.sacas !== null) {
      const kg = h(t.peso_liquido_kg);
      const s = h(t.sacas);
      const r = mulDivArredonda(kg, 1, 60);
      if (s !== r && s !== mulDivTrunca(kg, 1, 60)) {
        av.push({ codigo: "sacas_kg", mensagem: `${fmt(kg)} kg ÷ 60 = ${fmt(r)} sacas, mas o romaneio diz ${fmt(s)} sacas.`, campos: ["totais.peso_liquido_kg", "totais.sacas"] });
      }
    }
    brutoPreco(av, t.sacas, t.preco_saca, t.valor_bruto, "sacas", "saca", "preco_saca");
    liquidoDescontos(av, t.valor_bruto, t.descontos, t.valor_liquido);
    for (const k of ["peso_bruto_kg", "tara_kg", "peso_liquido_kg", "sacas", "preco_saca", "valor_bruto", "valor_liquido"] as const) if (t[k] === null) ausentes.push(`totais.${k}`);
  }
  if (t) {
    t.descontos.forEach((d, i) => {
      if (d.valor !== null && d.aliquota_pct !== null && t.valor_bruto !== null) {
        const e = mulDivArredonda(h(t.valor_bruto), h(d.aliquota_pct), 10000);
        const tr = mulDivTrunca(h(t.valor_bruto), h(d.aliquota_pct), 10000);
        if (h(d.valor) !== e && h(d.valor) !== tr) {
          av.push({ codigo: "desconto_aliquota", mensagem: `${d.nome}: ${fmt(h(d.aliquota_pct))}% de R$ ${fmt(h(t.valor_bruto))} = R$ ${fmt(e)}, mas o romaneio diz R$ ${fmt(h(d.valor))}.`, campos: [`totais.descontos[${i}].valor`, `totais.descontos[${i}].aliquota_pct`, "totais.valor_bruto"] });
        }
      }
      if (d.valor === null) ausentes.push(`totais.descontos[${i}].valor`);
    });
  }
  if (ausentes.length) av.push({ codigo: "campo_ausente", mensagem: `Não foi possível ler: ${ausentes.join(", ")}.`, campos: ausentes });
  return av;
}

function brutoPreco(av: AvisoRomaneio[], qtd: number | null, preco: number | null, bruto: number | null, nome: string, un: string, campoPreco: string): void {
  if (qtd === null || preco === null || bruto === null) return;
  const e = mulDivArredonda(h(qtd), h(preco), 100);
  const tr = mulDivTrunca(h(qtd), h(preco), 100);
  if (h(bruto) !== e && h(bruto) !== tr) {
    av.push({ codigo: "bruto_preco", mensagem: `${fmt(h(qtd))} ${nome} × R$ ${fmt(h(preco))}/${un} = R$ ${fmt(e)}, mas o valor bruto diz R$ ${fmt(h(bruto))}.`, campos: [`totais.${nome}`, `totais.${campoPreco}`, "totais.valor_bruto"] });
  }
}

function liquidoDescontos(av: AvisoRomaneio[], bruto: number | null, ds: Desconto[], liquido: number | null): void {
  if (bruto === null || liquido === null || ds.some((d) => d.valor === null)) return;
  const soma = ds.reduce((s, d) => s + h(d.valor!), 0);
  const e = h(bruto) - soma;
  if (e !== h(liquido)) {
    av.push({ codigo: "liquido_descontos", mensagem: `Valor bruto R$ ${fmt(h(bruto))} − descontos R$ ${fmt(soma)} = R$ ${fmt(e)}, mas o líquido diz R$ ${fmt(h(liquido))}.`, campos: ["totais.valor_bruto", ...ds.map((_, i) => `totais.descontos[${i}].valor`), "totais.valor_liquido"] });
  }
}
