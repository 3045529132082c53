/**
 * CEPEA's series downloads: every indicator page links to its whole history as a spreadsheet,
 * `/br/indicador/series/{pagina}.aspx?id={id}`. What is known of these files (from agrobr, which
 * reads them; no real download could be recorded for this project, so the tests build files in
 * this layout with the same library):
 *
 * - a legacy Excel .xls (BIFF), first sheet;
 * - the series title in the first cell (A1), e.g. "Indicador do Boi Gordo CEPEA/ESALQ";
 * - the header in the fourth row: "Data | À vista R$ | À vista US$" for the daily indicators
 *   (another term than "À vista" where the indicator has one);
 * - dates as dd/mm/yyyy text, values as numbers or Brazilian text ("1.234,56"); an empty or
 *   non-positive cell means no value that day;
 * - the DIMENSIONS record declares one row more than the sheet holds.
 *
 * The header row is found by its labels and the title is checked against the indicator of the
 * page, never trusted by position alone: a file of another indicator, a renamed or missing
 * column, or fewer rows than declared (a cut download) is refused, naming what was expected and
 * what was found. Values are never rounded: a value with more than two decimals refuses the file.
 * The dates run in one order from the first row to the last (oldest first or newest first): a row
 * out of it (day and month swapped, a year mistyped) refuses the file, never becomes another day;
 * so does an oldest or newest row standing alone (a year mistyped on an end row keeps the order),
 * and a value under an empty header cell (the labelled columns would be read one off).
 */
import { daysBetween, formatDateBR, parseDateBR } from "../domain/dates.ts";
import { ParseError } from "../domain/errors.ts";
import { fromHundredths, hasAtMostTwoDecimals, parseBRDecimal } from "../domain/money.ts";
import { normKey } from "./html.ts";
import { allSeries } from "./index.ts";
import { nomeDaCelula, type Celula, type Planilha } from "./planilha.ts";

/** One CEPEA indicator with a series download, and how to recognise its file. */
export interface SerieCepea {
  /** the catalogue's series id it feeds ("boi_gordo", "soja/PR") */
  serie: string;
  /** the indicator page (PageDef.id of pipeline/sources/cepea.ts) */
  pagina: string;
  /** CEPEA's indicator id, the `id` of the series download */
  id: number;
  /** words the title in A1 must hold (compared without accents or case) */
  titulo: readonly string[];
  /** words it must not hold (Paraná's soja title must not be Paranaguá's) */
  tituloSem?: readonly string[];
  /** the price term of the columns: "À vista" -> "À vista R$" and "À vista US$" */
  termo: string;
}

/**
 * The indicators whose series download the backfill knows: every CEPEA series whose declaration
 * (pipeline/sources/cepea.ts) carries `serieHistorica` — the download's id (as agrobr lists them)
 * and how its file is recognised. A new CEPEA indicator gets its backfill in its own declaration.
 * The titles and terms of the downloads of the indicators added after the first five are
 * unverified: a file that differs is refused naming what it holds.
 */
export const SERIES_CEPEA: readonly SerieCepea[] = allSeries().flatMap((d) =>
  d.fonte === "cepea" && d.serieHistorica ? [{ serie: d.id, pagina: d.pagina, ...d.serieHistorica }] : [],
);

/** The series download of an indicator: `{base}/br/indicador/series/{pagina}.aspx?id={id}`. */
export function urlDaSerie(base: string, s: Pick<SerieCepea, "pagina" | "id">): string {
  return `${base.replace(/\/+$/, "")}/br/indicador/series/${s.pagina}.aspx?id=${s.id}`;
}

/** The day the Real began: before it, CEPEA's values are in cruzeiros reais (and older currencies). */
export const INICIO_DO_REAL = "1994-07-01";

/** How far down the header may be looked for (CEPEA's is on row 4). */
const MAX_LINHA_CABECALHO = 20;
/** The row CEPEA's files put the header on (1-based); elsewhere it is still read, with a warning. */
const LINHA_CABECALHO_CEPEA = 4;
/**
 * An end row (the oldest or the newest day) this many days or more from its neighbour, and more
 * than twice as far as any other two rows of the file, is a date typed wrong (see lerSerieCepea).
 * CEPEA's daily series step over 9 days at most (year end, Carnival).
 */
const MIN_DIAS_PONTA_ISOLADA = 20;
/** Problems listed in one refusal before "e mais N". */
const MAX_PROBLEMAS = 10;

export interface DiaLido {
  data: string;
  valor: number;
  valor_usd?: number;
}

export interface SerieLida {
  titulo: string;
  /** 1-based row of the header */
  linhaCabecalho: number;
  /** the days with an R$ value from the Real on, in the file's order */
  dias: DiaLido[];
  /** rows under the header holding a date */
  linhasDeDados: number;
  /** dated rows without an R$ value (empty or non-positive): not imported */
  semValor: number;
  /** dated rows before 1º/07/1994 (before the Real): not imported */
  anterioresAoReal: { n: number; primeiro: string | null; ultimo: string | null };
  avisos: string[];
}

type Campo = "data" | "valor" | "valor_usd";

function colunasEsperadas(s: SerieCepea): Array<{ campo: Campo; rotulo: string }> {
  return [
    { campo: "data", rotulo: "Data" },
    { campo: "valor", rotulo: `${s.termo} R$` },
    { campo: "valor_usd", rotulo: `${s.termo} US$` },
  ];
}

function mostra(c: Celula): string {
  return c === null ? "(vazia)" : typeof c === "number" ? String(c) : `"${c}"`;
}

/** "Data | À vista R$ | À vista US$" as the operator would read it in the file. */
function linhaComoTexto(cells: readonly Celula[]): string {
  return cells.length === 0 ? "(vazia)" : cells.map((c) => (c === null ? "" : String(c))).join(" | ");
}

/** The title in A1 names the indicator of the page, or the file is refused. */
function checkTitulo(p: Planilha, s: SerieCepea): string {
  const a1 = p.linhas > 0 ? p.linha(0)[0] ?? null : null;
  const esperado = `um título com ${s.titulo.map((w) => `"${w}"`).join(" e ")}${s.tituloSem ? ` e sem ${s.tituloSem.map((w) => `"${w}"`).join(", ")}` : ""}`;
  if (typeof a1 !== "string") {
    throw new ParseError(`layout desconhecido: a célula A1 deveria trazer o título da série (${esperado}, da página cepea/${s.pagina}); encontrado ${mostra(a1)}`);
  }
  const key = normKey(a1);
  const words = new Set(key.split(/[^A-Z0-9$]+/).filter(Boolean));
  const has = (w: string) => (w.includes(" ") ? key.includes(w) : words.has(w));
  if (!s.titulo.every(has) || (s.tituloSem ?? []).some(has)) {
    throw new ParseError(`a planilha é de outro indicador: título "${a1}" na célula A1, esperado ${esperado} (página cepea/${s.pagina}, série ${s.serie})`);
  }
  return a1;
}

/** The header row, found by its labels; every column read by label. */
function acharCabecalho(p: Planilha, s: SerieCepea): { linha: number; col: Map<Campo, number>; largura: number; cells: Celula[] } {
  const esperadas = colunasEsperadas(s);
  const esperadoTexto = esperadas.map((c) => c.rotulo).join(" | ");
  const limite = Math.min(p.linhas, MAX_LINHA_CABECALHO);
  for (let r = 0; r < limite; r++) {
    const cells = p.linha(r);
    if (!cells.some((c) => typeof c === "string" && normKey(c) === "DATA")) continue;
    const col = new Map<Campo, number>();
    const problemas: string[] = [];
    cells.forEach((c, i) => {
      if (c === null) return;
      const key = typeof c === "string" ? normKey(c).replace(/\s*\*$/, "") : String(c);
      const e = esperadas.find((x) => normKey(x.rotulo) === key);
      if (!e) problemas.push(`coluna desconhecida ${mostra(c)} em ${nomeDaCelula(r, i)}`);
      else if (col.has(e.campo)) problemas.push(`coluna "${e.rotulo}" aparece duas vezes`);
      else col.set(e.campo, i);
    });
    for (const e of esperadas) if (!col.has(e.campo)) problemas.unshift(`coluna "${e.rotulo}" não encontrada`);
    if (problemas.length > 0) {
      throw new ParseError(
        `layout desconhecido na linha ${r + 1} (cabeçalho): ${problemas.join("; ")}; esperado "${esperadoTexto}", encontrado "${linhaComoTexto(cells)}"`,
      );
    }
    return { linha: r, col, largura: cells.length, cells };
  }
  const vistas = Array.from({ length: Math.min(limite, 6) }, (_, r) => `linha ${r + 1}: "${linhaComoTexto(p.linha(r))}"`);
  throw new ParseError(
    `layout desconhecido: nenhuma linha de cabeçalho "${esperadoTexto}" nas primeiras ${MAX_LINHA_CABECALHO} linhas (o CEPEA a põe na linha ${LINHA_CABECALHO_CEPEA}); ` +
      `encontrado: ${vistas.join("; ") || "planilha vazia"}`,
  );
}

/** The rows a complete file holds: CEPEA's declare one more than they hold; a cut download holds fewer. */
function checkInteira(p: Planilha): void {
  if (p.declaradas !== null) {
    if (p.linhas < p.declaradas - 1) {
      throw new ParseError(
        `download incompleto: a planilha declara ${p.declaradas} linhas e traz só ${p.linhas} ` +
          `(os arquivos do CEPEA declaram uma linha a mais do que trazem: completo teria ${p.declaradas - 1} ou ${p.declaradas}); baixe de novo`,
      );
    }
    if (p.linhas > p.declaradas) {
      throw new ParseError(`planilha irregular: traz ${p.linhas} linhas, mais do que as ${p.declaradas} que declara`);
    }
  } else if (p.terminaComQuebra === false) {
    throw new ParseError("download incompleto: o CSV não termina com quebra de linha (a última linha foi cortada?); baixe de novo");
  }
}

/**
 * Reads one CEPEA series file (xls, xlsx or csv already opened by planilha.ts) for the series `s`.
 * `progresso` is called as rows are read (row count so far, total rows under the header).
 */
export function lerSerieCepea(p: Planilha, s: SerieCepea, progresso: (lidas: number, total: number) => void = () => {}): SerieLida {
  checkInteira(p);
  const titulo = checkTitulo(p, s);
  const { linha: h, col, largura, cells: cabecalho } = acharCabecalho(p, s);
  const avisos: string[] = [];
  if (h + 1 !== LINHA_CABECALHO_CEPEA) avisos.push(`cabeçalho na linha ${h + 1} (o CEPEA o põe na linha ${LINHA_CABECALHO_CEPEA}); lido pelos rótulos`);
  const cData = col.get("data")!;
  const cValor = col.get("valor")!;
  const cUsd = col.get("valor_usd")!;
  const rotulo = new Map(colunasEsperadas(s).map((c) => [col.get(c.campo)!, c.rotulo]));

  const problemas: string[] = [];
  let excedentes = 0;
  const problema = (msg: string) => {
    if (problemas.length < MAX_PROBLEMAS) problemas.push(msg);
    else excedentes++;
  };
  const decimais: string[] = [];
  let decimaisExcedentes = 0;

  /** hundredths of a positive value; null for none (empty, zero or negative) */
  const valorDe = (c: Celula, r: number, i: number): number | null => {
    const onde = `${nomeDaCelula(r, i)} ("${rotulo.get(i)}")`;
    if (c === null) return null;
    if (typeof c === "number") {
      if (!Number.isFinite(c)) {
        problema(`${onde}: número inválido ${c}`);
        return null;
      }
      if (c <= 0) return null;
      if (!hasAtMostTwoDecimals(c)) {
        if (decimais.length < 5) decimais.push(`${onde} = ${c}`);
        else decimaisExcedentes++;
        return null;
      }
      return Math.round(c * 100);
    }
    const h = parseBRDecimal(c);
    if (h === null) {
      if (/^-?[\d.]*,\d{3,}$/.test(c)) {
        if (decimais.length < 5) decimais.push(`${onde} = "${c}"`);
        else decimaisExcedentes++;
      } else problema(`${onde}: valor ilegível "${c}" (esperado número, ou texto como 1.234,56)`);
      return null;
    }
    return h > 0 ? h : null;
  };

  const dias: DiaLido[] = [];
  const vistos = new Map<string, number>();
  /** every dated row in file order (1-based row, ISO date), for the order check */
  const ordem: Array<[number, string]> = [];
  let linhasDeDados = 0;
  let semValor = 0;
  const antes = { n: 0, primeiro: null as string | null, ultimo: null as string | null };
  const total = p.linhas - h - 1;
  const passo = Math.max(1, Math.ceil(total / 10));
  for (let r = h + 1; r < p.linhas; r++) {
    const k = r - h;
    if (k % passo === 0 || r === p.linhas - 1) progresso(k, total);
    const cells = p.linha(r);
    if (cells.length === 0) continue; // an empty row: nothing to read
    if (cells.length > largura) {
      problema(`linha ${r + 1}: célula ${nomeDaCelula(r, cells.length - 1)} fora das colunas do cabeçalho (${mostra(cells[cells.length - 1]!)})`);
      continue;
    }
    // a value under a header cell left empty is read by no label: the labelled columns would
    // then be read one off from the data (a header shifted by an empty cell reads the US$ value
    // as the R$ one), so it refuses the file, as a column beyond the header does
    const semRotulo = cells.findIndex((c, i) => c !== null && !rotulo.has(i));
    if (semRotulo !== -1) {
      problema(
        `linha ${r + 1}: valor ${mostra(cells[semRotulo]!)} em ${nomeDaCelula(r, semRotulo)}, coluna sem rótulo no cabeçalho (linha ${h + 1}: "${linhaComoTexto(cabecalho)}")`,
      );
      continue;
    }
    const d = cells[cData] ?? null;
    if (typeof d !== "string") {
      problema(
        `linha ${r + 1}: data ${mostra(d)} em ${nomeDaCelula(r, cData)}, esperado texto dd/mm/aaaa` + (typeof d === "number" ? " (é um número: data do Excel? o CEPEA grava as datas como texto)" : ""),
      );
      continue;
    }
    const data = parseDateBR(d);
    if (!data) {
      problema(`linha ${r + 1}: data inválida "${d}" em ${nomeDaCelula(r, cData)} (esperado dd/mm/aaaa)`);
      continue;
    }
    const repetida = vistos.get(data);
    if (repetida !== undefined) {
      problema(`linha ${r + 1}: o dia ${d} já apareceu na linha ${repetida}`);
      continue;
    }
    vistos.set(data, r + 1);
    ordem.push([r + 1, data]);
    linhasDeDados++;
    // before the Real the values are in cruzeiros reais or older currencies: never read as R$
    if (data < INICIO_DO_REAL) {
      antes.n++;
      if (antes.primeiro === null || data < antes.primeiro) antes.primeiro = data;
      if (antes.ultimo === null || data > antes.ultimo) antes.ultimo = data;
      continue;
    }
    const brl = valorDe(cells[cValor] ?? null, r, cValor);
    const usd = valorDe(cells[cUsd] ?? null, r, cUsd);
    if (brl === null) {
      semValor++;
      continue;
    }
    const dia: DiaLido = { data, valor: fromHundredths(brl) };
    if (usd !== null) dia.valor_usd = fromHundredths(usd);
    dias.push(dia);
  }
  // one order from the first dated row to the last: a row out of it is a date typed wrong (day
  // and month swapped, a year mistyped) that sorting would turn into a day of its own, with the
  // price of the day it really was
  let emOrdem = true;
  if (ordem.length >= 2) {
    const crescente = ordem[0]![1] < ordem[ordem.length - 1]![1];
    const sentido = crescente ? "do mais antigo ao mais novo" : "do mais novo ao mais antigo";
    for (let i = 1; i < ordem.length; i++) {
      const [la, a] = ordem[i - 1]!;
      const [lb, b] = ordem[i]!;
      if (crescente ? a < b : a > b) continue;
      emOrdem = false;
      problema(
        `linhas ${la} e ${lb} fora de ordem: ${formatDateBR(a)} seguido de ${formatDateBR(b)} (o arquivo vai ${sentido}); ` +
          "dia e mês trocados ou ano errado numa delas?",
      );
    }
  }
  // a year (or a month) typed wrong on the oldest or the newest row keeps that order: the row
  // becomes a lone day a year from the rest, with the price of the day it really was (the jump
  // rule allows three times the limit after such a gap). Refused when the end row stands at
  // least MIN_DIAS_PONTA_ISOLADA days and more than twice the file's longest other step from its neighbour
  // (a series with a real pause has steps as long). A row before the Real is not imported anyway.
  if (emOrdem && ordem.length >= 3) {
    const cron = ordem[0]![1] < ordem[ordem.length - 1]![1] ? ordem : [...ordem].reverse();
    const passos = cron.slice(1).map(([, d], i) => daysBetween(cron[i]![1], d));
    const pontas: Array<{ ponta: [number, string]; vizinho: [number, string]; passo: number; outros: number[]; qual: string; lado: string }> = [
      { ponta: cron[0]!, vizinho: cron[1]!, passo: passos[0]!, outros: passos.slice(1), qual: "o dia mais antigo", lado: "do seguinte" },
      { ponta: cron[cron.length - 1]!, vizinho: cron[cron.length - 2]!, passo: passos[passos.length - 1]!, outros: passos.slice(0, -1), qual: "o dia mais novo", lado: "do anterior" },
    ];
    for (const { ponta, vizinho, passo, outros, qual, lado } of pontas) {
      const maior = Math.max(...outros);
      if (ponta[1] < INICIO_DO_REAL || passo < MIN_DIAS_PONTA_ISOLADA || passo <= 2 * maior) continue;
      problema(
        `linha ${ponta[0]}: ${formatDateBR(ponta[1])}, ${qual} do arquivo, fica a ${passo} dias ${lado} (${formatDateBR(vizinho[1])}, linha ${vizinho[0]}), ` +
          `mais que o dobro do maior intervalo entre as outras linhas (${maior} dias): ano ou mês digitado errado nessa linha? ` +
          "Corrija a data e importe de novo; se a data estiver certa (a série ficou mesmo esse tempo sem cotação), apague só essa linha: as outras são importadas e esse dia fica fora do histórico",
      );
    }
  }
  if (decimais.length > 0) {
    const n = decimais.length + decimaisExcedentes;
    problemas.unshift(
      `${n} valor(es) com mais de duas casas decimais (${decimais.join("; ")}${decimaisExcedentes ? `; e mais ${decimaisExcedentes}` : ""}): ` +
        "a API publica centavos e nada é arredondado em silêncio, então esta série não é importada deste arquivo",
    );
  }
  if (problemas.length > 0) {
    throw new ParseError(problemas.join("; ") + (excedentes ? `; e mais ${excedentes} problema(s)` : ""));
  }
  if (linhasDeDados === 0) throw new ParseError(`a planilha não traz nenhuma linha de dados abaixo do cabeçalho (linha ${h + 1})`);
  return { titulo, linhaCabecalho: h + 1, dias, linhasDeDados, semValor, anterioresAoReal: antes, avisos };
}
