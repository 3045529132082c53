/**
 * Fault corpus for every parser (CEPEA indicator pages, Scot's Mercado Físico, its Notícias
 * Agrícolas mirror), generated from the recorded pages: truncations at many offsets through the
 * tables, cells removed or added, U+FFFD and control characters in labels, unclosed tables,
 * unknown or missing columns. Each is either refused with a ParseError that says what was wrong,
 * or (only when nothing was lost) read exactly as the golden file says.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ParseError } from "../../pipeline/domain/errors.ts";
import type { PriceRow } from "../../pipeline/domain/row.ts";
import { cepea } from "../../pipeline/sources/cepea.ts";
import { naBoiGordo, naVacaGorda } from "../../pipeline/sources/noticias-agricolas.ts";
import { scot } from "../../pipeline/sources/scot.ts";
import type { ParsedPage } from "../../pipeline/sources/types.ts";

const dir = new URL("../fixtures/", import.meta.url);
const bytesOf = (file: string) => readFileSync(new URL(file, dir));
const text = (file: string) => bytesOf(file).toString("utf8");
const json = (file: string) => JSON.parse(text(file)) as unknown;

interface Caso {
  nome: string;
  file: string;
  parse: (html: string) => ParsedPage;
  golden: ParsedPage;
  /** where the table(s) the parser reads begin in the raw text, and how many it reads */
  inicio: string;
  tabelas: number;
  /** where the region whose cut-and-closed variants must never change a value ends (Scot: its tfoot) */
  fimDados?: string;
}

const page = <T extends { id: string }>(pages: T[], id: string) => pages.find((p) => p.id === id)!;
const naGolden = json("noticias-agricolas/boi-gordo-scot-consultoria.expected.json") as Record<string, ParsedPage>;

const CASOS: Caso[] = [
  ...(["boi-gordo", "bezerro", "milho"] as const).map((id) => ({
    nome: `cepea/${id}`,
    file: `cepea/${id}.html`,
    parse: (h: string) => page(cepea.pages, id).parse(h),
    golden: json(`cepea/${id}.expected.json`) as ParsedPage,
    inicio: "imagenet-table-titulo",
    tabelas: 1,
  })),
  {
    nome: "cepea/soja",
    file: "cepea/soja.html",
    parse: (h) => page(cepea.pages, "soja").parse(h),
    golden: json("cepea/soja.expected.json") as ParsedPage,
    inicio: "imagenet-table-titulo",
    tabelas: 2,
  },
  ...(["boi-gordo", "vaca-gorda"] as const).map((id) => ({
    nome: `scot/${id}`,
    file: `scot/${id}.html`,
    parse: (h: string) => page(scot.pages, id).parse(h),
    golden: json(`scot/${id}.expected.json`) as ParsedPage,
    inicio: "Mercado F&iacute;sico",
    tabelas: 1,
    fimDados: "<tfoot>",
  })),
  ...([
    ["boi-gordo", naBoiGordo],
    ["vaca-gorda", naVacaGorda],
  ] as const).map(([id, mirror]) => ({
    nome: `noticias-agricolas (scot/${id})`,
    file: "noticias-agricolas/boi-gordo-scot-consultoria.html",
    parse: (h: string) => mirror.parse(h),
    golden: naGolden[`scot/${id}`]!,
    inicio: '<table class="cot-fisicas">',
    tabelas: 1,
  })),
];

/** Byte offsets [start, end) of the read tables: from the first marker to the last `</table>`. */
function regiao(bytes: Buffer, c: Caso): [number, number] {
  const start = bytes.indexOf(c.inicio);
  let end = start;
  for (let i = 0; i < c.tabelas; i++) end = bytes.indexOf("</table>", end) + "</table>".length;
  expect(start).toBeGreaterThan(0);
  return [start, end];
}

type Resultado = { ok: true; page: ParsedPage } | { ok: false; err: ParseError };

function tentar(c: Caso, html: string): Resultado {
  try {
    return { ok: true, page: c.parse(html) };
  } catch (e) {
    if (!(e instanceof ParseError)) throw new Error(`${c.nome}: erro que não é ParseError: ${String(e)}`);
    return { ok: false, err: e };
  }
}

function parseError(c: Caso, html: string): ParseError {
  const r = tentar(c, html);
  if (r.ok) throw new Error(`${c.nome}: esperava ParseError, a página foi aceita com ${r.page.rows.length} linhas`);
  return r.err;
}

const decoder = new TextDecoder("utf-8"); // a cut inside a multi-byte character decodes to U+FFFD, as it would live

describe.each(CASOS.map((c) => [c.nome, c] as const))("%s", (_nome, c) => {
  const bytes = bytesOf(c.file);
  const html = bytes.toString("utf8");
  const [ini, fim] = regiao(bytes, c);
  const completo = html.trimEnd();
  const golden = JSON.parse(JSON.stringify(c.golden)) as ParsedPage;

  it("reads the whole recorded page exactly as the golden file", () => {
    expect(c.parse(html)).toEqual(golden);
  });

  it("a page cut at any offset through its table(s) or its end is refused, unless nothing was lost", () => {
    const offsets = new Set<number>();
    // every N bytes through the table(s), N small enough for ~1000 cuts (7 to 33 bytes here)
    const passo = Math.max(3, Math.ceil((fim - ini) / 1000));
    for (let o = ini; o < fim; o += passo) offsets.add(o);
    for (let o = Math.max(ini, fim - 200); o <= fim + 8; o++) offsets.add(o); // every byte around the table's end
    for (let o = bytes.length - 64; o <= bytes.length; o++) offsets.add(o); // every byte around the document's end
    for (let o = 0; o < ini; o += 997) offsets.add(o); // and a few before the table
    let recusadas = 0;
    for (const o of offsets) {
      const cut = decoder.decode(bytes.subarray(0, o));
      const r = tentar(c, cut);
      if (cut.trimEnd() === completo) {
        expect(r.ok ? r.page : r.err.message, `corte em ${o} (nada perdido)`).toEqual(golden);
      } else {
        expect(r.ok, `corte em ${o} de ${bytes.length} aceito: "${cut.slice(-40)}"`).toBe(false);
        recusadas++;
      }
    }
    expect(recusadas).toBeGreaterThan((fim - ini) / passo);
  });

  it("a page cut inside its data and then closed again never yields a value the page does not have", () => {
    // someone (a proxy, a bad cache) may close what was cut: the rows then look complete, but a
    // cell cut short ("66,38" -> "6") must still never read as a smaller number
    const fimDados = c.fimDados ? bytes.indexOf(c.fimDados, ini) : fim;
    const fechos = c.file.startsWith("scot/")
      ? ["</table>", "</td></tr></tbody></table>"]
      : ["</table></body></html>", "</td></tr></tbody></table></div></body></html>"];
    const linhas = new Set(golden.rows.map((r) => JSON.stringify(r)));
    // half of the cuts fall inside the last cell of a row, the one cut a closing tail makes
    // look whole ("<td>67,7" + "</td></tr>...")
    const ultimaCelula: number[] = [];
    const regiaoTexto = bytes.subarray(0, fimDados).toString("latin1"); // one char per byte: indexes are offsets
    for (const m of regiaoTexto.slice(ini).matchAll(/<td[^>]*>([^<]*)<\/td>\s*<\/tr>/g)) {
      const celula = ini + m.index + m[0].indexOf(">") + 1;
      for (let o = celula + 1; o < celula + m[1]!.length; o++) ultimaCelula.push(o);
    }
    const corte = fc
      .record({
        alvo: fc.boolean(),
        i: fc.nat({ max: Math.max(0, ultimaCelula.length - 1) }),
        o: fc.integer({ min: ini, max: fimDados }),
        fecho: fc.constantFrom(...fechos),
      })
      .map(({ alvo, i, o, fecho }) => (alvo && ultimaCelula.length ? ([ultimaCelula[i]!, fechos[1]!] as const) : ([o, fecho] as const)));
    fc.assert(
      fc.property(corte, ([o, fecho]) => {
        const r = tentar(c, decoder.decode(bytes.subarray(0, o)) + fecho);
        if (!r.ok) return;
        for (const row of r.page.rows) {
          expect(linhas.has(JSON.stringify(row)), `corte em ${o} + ${fecho}: ${JSON.stringify(row)}`).toBe(true);
        }
      }),
      { numRuns: 12 },
    );
  });

  it("a table without its </table> is refused even when the document ends well", () => {
    const i = html.lastIndexOf("</table>", html.indexOf("</table>", html.indexOf(c.inicio)) + 1);
    const semFecho = html.slice(0, i) + html.slice(i + "</table>".length);
    expect(parseError(c, semFecho).message).toMatch(/não termina em <\/table>|sem <\/table>|a tabela \d+ do trecho não tem <\/table>/);
  });

  it("a NUL character anywhere is refused", () => {
    expect(parseError(c, html.replace("</head>", "\u0000</head>").replace("<tbody>", "<tbody>\u0000")).message).toContain("U+0000");
  });
});

/** The same edit on the part of the page from the table's marker on. */
const naTabela = (html: string, inicio: string, from: string | RegExp, to: string) => {
  const at = html.indexOf(inicio);
  const tail = html.slice(at);
  const edited = tail.replace(from, to);
  expect(edited, `"${String(from)}" não encontrado`).not.toBe(tail);
  return html.slice(0, at) + edited;
};

describe("CEPEA: the cases an attacker found, and their neighbours", () => {
  const c = CASOS.find((x) => x.nome === "cepea/boi-gordo")!;
  const bez = CASOS.find((x) => x.nome === "cepea/bezerro")!;
  const html = text(c.file);
  const edit = (from: string | RegExp, to: string, h = html) => naTabela(h, "INDICADOR DO", from, to);

  it("a page cut inside a cell ('66,38' -> '6', the file ends there) is refused", () => {
    const cut = html.slice(0, html.indexOf("<td>66,38</td>") + "<td>6".length);
    expect(cut.endsWith("<td>6")).toBe(true);
    expect(parseError(c, cut).message).toContain("não termina em </html>");
    // and the same cut with the document closed behind it
    const closed = `${cut}</td></tr></tbody></table></div></body></html>`;
    expect(parseError(c, closed).message).toMatch(/número inválido na coluna "Valor US\$\*": "6"/);
  });

  it("a number cut short in a closed table is refused: 66,3 / 3.42 / 347", () => {
    expect(parseError(c, edit("<td>66,38</td>", "<td>66,3</td>")).message).toContain('"66,3"');
    expect(parseError(c, edit("<td>347,70</td>", "<td>347</td>")).message).toContain('"347"');
    expect(parseError(bez, naTabela(text(bez.file), "INDICADOR DO", "<td>3.426,02</td>", "<td>3.42</td>")).message).toContain('"3.42"');
  });

  it("a row with a cell removed, or with one more, is refused naming the row", () => {
    const menos = parseError(c, edit("<td>0,96%</td>", ""));
    expect(menos.message).toContain("linha 1: 4 células, esperadas 5 pelo cabeçalho");
    const mais = parseError(c, edit("<td>0,96%</td>", "<td>0,96%</td><td>1,00</td>"));
    expect(mais.message).toContain("linha 1: 6 células, esperadas 5 pelo cabeçalho");
  });

  it("a row without its </tr> or a cell without its </td> is refused", () => {
    expect(parseError(c, edit(/(<td>67,78<\/td>\s*)<\/tr>/, "$1")).message).toContain("linha 1: linha sem </tr>");
    expect(parseError(c, edit("<td>67,78</td>", "<td>67,78")).message).toContain("célula sem </td>");
  });

  it("a garbled variation is refused though it is not published", () => {
    expect(parseError(c, edit("<td>0,96%</td>", "<td>0,9</td>")).message).toContain('variação inválida na coluna "Var./Mês": "0,9"');
  });

  it.each([
    ["U+FFFD", "\uFFFD", /U\+FFFD \(caractere de substituição/],
    ["a C0 control character", "\u0007", /caractere de controle U\+0007/],
    ["a C1 control character", "\u0096", /caractere de controle U\+0096/],
  ])("%s in a header label is refused naming the label", (_n, ch, why) => {
    const err = parseError(c, edit("<th>Var./Mês</th>", `<th>Var./M${ch}s</th>`));
    expect(err.message).toMatch(why);
    expect(err.message).toContain(`rótulo "Var./M\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}s"`);
    expect(err.message).toContain('tabela "INDICADOR DO BOI GORDO CEPEA/ESALQ"');
  });

  it("U+FFFD in a table title is refused, not taken for a missing table", () => {
    const err = parseError(c, html.replace("INDICADOR DO BOI GORDO CEPEA/ESALQ</div>", "INDICADOR DO BOI GORDO CEPEA/ESALQ \uFFFD</div>"));
    expect(err.kind).toBe("parse_error");
    expect(err.message).toContain("título de tabela");
    expect(err.message).toContain("U+FFFD");
  });

  it("an unknown column is refused saying what was expected and what was found", () => {
    const err = parseError(c, edit("<th>Var./Dia</th>", "<th>Var./Semana</th>"));
    expect(err.message).toContain('coluna "Var./Dia" não encontrada; coluna desconhecida "Var./Semana"');
    expect(err.message).toContain('esperadas "(data, sem rótulo)", "Valor R$", "Var./Dia", "Var./Mês", "Valor US$"');
    expect(err.message).toContain('encontradas "", "Valor R$*", "Var./Semana", "Var./Mês", "Valor US$*"');
  });

  it("a column that appears twice is refused", () => {
    expect(parseError(c, edit("<th>Var./Dia</th>", "<th>Valor R$</th>")).message).toContain('coluna "Valor R$" aparece duas vezes');
  });

  it("'Valor R$' and 'Valor US$' labels swapped: read by label, without crashing (the rate gate judges it)", () => {
    const h = text(bez.file);
    const swapped = naTabela(naTabela(h, "INDICADOR DO", "<th>Valor R$*</th>", "<th>TMP</th>"), "INDICADOR DO", "<th>Valor US$*</th>", "<th>Valor R$*</th>").replace("<th>TMP</th>", "<th>Valor US$*</th>");
    const rows = bez.parse(swapped).rows;
    const last = rows[rows.length - 1]!;
    expect(last.valor).toBe(660.12);
    expect(last.extras.valor_usd).toBe(3426.02);
  });

  it("a document with nothing after its table is refused, one with Cloudflare's script after </html> is read", () => {
    const semFim = html.slice(0, html.indexOf("</body>"));
    expect(parseError(c, semFim).message).toContain("não termina em </html>");
    const comScript = `${html}\r\n<!-- cache -->\r\n<script>window.__CF$cv$params={r:'x'};</script>\r\n`;
    expect(c.parse(comScript)).toEqual(c.golden);
    expect(parseError(c, `${html}\r\n<script>window.__CF$cv$params=`).message).toContain("não termina em </html>");
  });
});

describe("Scot: the cases an attacker found, and their neighbours", () => {
  const c = CASOS.find((x) => x.nome === "scot/boi-gordo")!;
  const vaca = CASOS.find((x) => x.nome === "scot/vaca-gorda")!;
  const html = text(c.file);
  const edit = (from: string | RegExp, to: string, h = html) => naTabela(h, "Mercado F&iacute;sico", from, to);

  it("a page cut inside its last row is refused", () => {
    const at = html.lastIndexOf("<td>331,00</td>"); // Roraima, the last praça
    expect(html.slice(at - 200, at)).toContain("Roraima");
    const cut = html.slice(0, at + "<td>331,0".length);
    expect(parseError(c, cut).message).toContain("não termina em </table>");
    // the same cut closed again, footer included: the row is short of cells
    const tfoot = html.slice(html.indexOf("<tfoot>"), html.indexOf("</tfoot>") + "</tfoot>".length);
    expect(parseError(c, `${cut}0</td></tr></tbody>${tfoot}</table>`).message).toMatch(/praça 33 \("Roraima"\): 2 células, esperadas 11/);
    // and without the footer, MT Cuiabá's "*" has lost its text
    expect(parseError(c, `${cut}0</td></tr></tbody></table>`).message).toContain('praça "MT Cuiabá*": a nota "*" não tem texto no rodapé');
  });

  it("a row with a cell removed, or with one more, is refused naming the praça", () => {
    expect(parseError(c, edit("<td>345,50</td>", "")).message).toContain('praça 1 ("SP Barretos"): 10 células, esperadas 11');
    expect(parseError(c, edit("<td>345,50</td>", "<td>345,50</td><td>1,00</td>")).message).toContain("12 células, esperadas 11");
  });

  it("a row with a single cell is refused, not skipped", () => {
    const err = parseError(c, edit("<tr class='conteudo'>", "<tr class='conteudo'><td>SP Barretos</td></tr><tr class='conteudo'>"));
    expect(err.message).toContain('praça 1 ("SP Barretos"): 1 células, esperadas 11');
  });

  it("a number cut short in a closed table is refused", () => {
    expect(parseError(c, edit("<td>345,50</td>", "<td>345,5</td>")).message).toContain('"345,5"');
    expect(parseError(c, edit("<td>345,50</td>", "<td>3</td>")).message).toContain('coluna "Preços Brutos > à vista": "3"');
  });

  it.each([
    ["U+FFFD", "\uFFFD", "U+FFFD (caractere de substituição"],
    ["a C0 control character", "\u001B", "caractere de controle U+001B"],
    ["a C1 control character", "\u0085", "caractere de controle U+0085"],
    // invisible: "SP Ara\u200Batuba" would be a praça of its own that reads "SP Araçatuba" on screen
    ["a zero-width space", "\u200B", "caractere invisível U+200B"],
    ["a zero-width joiner", "\u200D", "caractere invisível U+200D"],
    ["a soft hyphen", "\u00AD", "caractere invisível U+00AD"],
    ["a right-to-left override", "\u202E", "caractere invisível U+202E"],
    ["a BOM inside the text", "\uFEFF", "caractere invisível U+FEFF"],
  ])("%s in a praça label is refused naming the label", (_n, ch, why) => {
    const err = parseError(c, edit("SP Araçatuba", `SP Ara${ch}atuba`));
    expect(err.message).toContain(why);
    expect(err.message).toContain(`"SP Ara\\u${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}atuba"`);
  });

  it("U+FFFD in a UF name or a footnote is refused too", () => {
    expect(parseError(c, edit(">Roraima<", ">Rora\uFFFDma<")).message).toContain('"Rora\\uFFFDma"');
    expect(parseError(c, edit("inclui Rondon&oacute;polis", "inclui Rondon\uFFFDpolis")).message).toContain("Rondon\\uFFFDpolis");
  });

  it("the Mercado Físico table left open is refused although the extract ends with a </table>", () => {
    // the open table comes last in the text... and then another table closes after it
    const at = html.indexOf("<table", 10);
    const china = html.slice(0, at);
    const mercado = html.slice(at).replace(/<\/table>\s*$/, "");
    expect(parseError(c, mercado + china).message).toContain("do trecho não tem </table>");
  });

  it("an unknown column is refused saying what was expected and what was found", () => {
    const err = parseError(c, edit("# base<sup>2</sup>", "# ágio<sup>2</sup>"));
    expect(err.message).toContain('coluna desconhecida "Preços Brutos > # ágio"');
    expect(err.message).toContain('esperadas "Preços Brutos > à vista"');
    expect(err.message).toContain('encontradas "Preços Brutos > à vista", "Preços Brutos > 30 D"');
  });

  it("a column the page must have is refused when missing (vaca has no '# base', boi must)", () => {
    expect(vaca.parse(text(vaca.file)).rows[0]!.extras).not.toHaveProperty("base_sp");
    const err = parseError(c, edit(/(Senar<sup>1<\/sup>)/, "ICMS"));
    expect(err.message).toMatch(/coluna desconhecida "Descontados > ICMS > à vista"/);
    // boi's "# base" cell relabelled as the blank trend column twice is a duplicate
    expect(parseError(c, edit("# base<sup>2</sup>", "")).message).toContain("aparece duas vezes");
  });
});

describe("Notícias Agrícolas: the same faults on the mirror", () => {
  const c = CASOS.find((x) => x.nome === "noticias-agricolas (scot/boi-gordo)")!;
  const vaca = CASOS.find((x) => x.nome === "noticias-agricolas (scot/vaca-gorda)")!;
  const html = text(c.file);
  const edit = (from: string | RegExp, to: string) => naTabela(html, '<table class="cot-fisicas">', from, to);

  it("a page cut inside a row is refused, for both products", () => {
    const cut = html.slice(0, html.indexOf("<td>308,50</td>") + "<td>30".length);
    expect(parseError(c, cut).message).toContain("não termina em </html>");
    expect(parseError(vaca, `${cut}</td></tr></tbody></table></body></html>`).message).toMatch(/número inválido na coluna "Vaca Gorda \(R\$\/@ - à vista\)": "30"/);
  });

  it("a row with a cell removed, or one more, is refused", () => {
    expect(parseError(c, edit("<td>330,00</td>", "")).message).toContain('praça 1 ("SP Barretos"): 3 células, esperadas 4');
    expect(parseError(vaca, edit("<td>330,00</td>", "<td>330,00</td><td>1,00</td>")).message).toContain("5 células, esperadas 4");
  });

  it("U+FFFD or a control character in a praça is refused naming it", () => {
    expect(parseError(c, edit("<td>SP Araçatuba</td>", "<td>SP Ara\uFFFDatuba</td>")).message).toContain('"SP Ara\\uFFFDatuba" contém U+FFFD');
    expect(parseError(vaca, edit("<td>Acre</td>", "<td>Ac\u0003re</td>")).message).toContain("U+0003");
  });

  it("an unknown or a missing column is refused saying what was expected and found", () => {
    const extra = parseError(c, edit("<th>Vaca Gorda (R$/@ - à vista)</th>", "<th>Vaca Gorda (R$/@ - à vista)</th><th>Novilha (R$/@)</th>"));
    expect(extra.message).toContain('coluna desconhecida "Novilha (R$/@)"');
    const semVaca = html
      .replace("<th>Vaca Gorda (R$/@ - à vista)</th>", "")
      .replace(/(<td>[^<]*<\/td>\s*<td>[^<]*<\/td>\s*<td>[^<]*<\/td>)\s*<td>[^<]*<\/td>/g, "$1");
    for (const m of [c, vaca]) {
      const err = parseError(m, semVaca);
      expect(err.message).toContain('coluna "Vaca Gorda (R$/@ - à vista)" não encontrada');
      expect(err.message).toContain('encontradas "Município", "Boi Gordo - (R$/@ - à vista)", "Boi Gordo - (R$/@ - prazo 30 dias)"');
    }
  });

  it("à vista and 30 dias labels swapped: read by label, without crashing", () => {
    const swapped = edit("<th>Boi Gordo - (R$/@ - à vista)</th>", "<th>TMP</th>")
      .replace("<th>Boi Gordo - (R$/@ - prazo 30 dias)</th>", "<th>Boi Gordo - (R$/@ - à vista)</th>")
      .replace("<th>TMP</th>", "<th>Boi Gordo - (R$/@ - prazo 30 dias)</th>");
    const r: PriceRow = c.parse(swapped).rows[0]!;
    expect([r.valor, r.extras.valor_30d]).toEqual([330, 326]);
  });

  it("the closing date with U+FFFD is refused", () => {
    expect(parseError(c, html.replace("Fechamento: 05/02/2026", "Fechamento\uFFFD 05/02/2026")).message).toContain("data de fechamento");
  });
});
