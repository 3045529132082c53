/**
 * checarRenderizado (validate/renderizados.ts) reads the lines that match by spelling the
 * expected line in place; every other line goes through the field-by-field comparison. These
 * tests hold it to that comparison alone (`referencia` below, the same check with its fast path
 * off): the same problems, in the same words, for the rendered files and for many damaged ones.
 */
import { describe, expect, it } from "vitest";
import type { Problema } from "../../pipeline/contract/messages.ts";
import type { HistoricoEntry } from "../../pipeline/domain/publicados.ts";
import { COLUNAS_NUMERICAS, COLUNAS_PRACAS, colunasHistorico, historicoCsvs, pracasCsvs } from "../../pipeline/render/csv.ts";
import { checarRenderizado, type TabelaRenderizada } from "../../pipeline/validate/renderizados.ts";
import { aleatorio } from "../helpers/aleatorio.ts";

/** Every line split into fields and compared with the fields the history gives: the check without its fast path. */
const referencia = (text: string, historico: readonly HistoricoEntry[], tabela: TabelaRenderizada, excel: boolean, unidade: string): Problema[] =>
  checarRenderizado(text, historico, tabela, excel, unidade, false);

const nacional: HistoricoEntry[] = [
  { data: "2026-09-04", valor: 347, valor_usd: 64.1 },
  { data: "2026-09-08", valor: 347.6, valor_usd: 64 },
  { data: "2026-09-09", valor: 347.75, valor_usd: 64.25 },
];

const estadual: HistoricoEntry[] = [
  { data: "2026-09-08", valor: 330, valor_30d: 333.5, base_sp: -2.1, tendencia: "alta", pracas: { Dourados: 330, "C. Grande": 329.5, "Três Lagoas": 331 } },
  { data: "2026-09-09", valor: 331.5, base_sp: 0, pracas: { Dourados: 331.5, "Campo Grande, MS": 330, 'Praça "Nova"': 332.25 } },
  { data: "2026-09-10", valor: 332, valor_30d: 335, tendencia: "estavel", pracas: { Dourados: 332 } },
];

function arquivos(historico: HistoricoEntry[], unidade = "@") {
  const h = historicoCsvs(historico, unidade);
  const p = pracasCsvs(historico, unidade);
  const out: Array<{ nome: string; text: string; tabela: TabelaRenderizada; excel: boolean }> = [
    { nome: "csv", text: h.csv, tabela: "historico", excel: false },
    { nome: "excel", text: h.excel, tabela: "historico", excel: true },
  ];
  if (p) out.push({ nome: "pracas", text: p.csv, tabela: "pracas", excel: false }, { nome: "pracas excel", text: p.excel, tabela: "pracas", excel: true });
  return out;
}

/** A table written without quoting, and with or without Excel's decimal comma: what a careless renderer would write. */
function ingenuo(historico: readonly HistoricoEntry[], tabela: TabelaRenderizada, excel: boolean, unidade: string, virgula: boolean): string {
  const sep = excel ? ";" : ",";
  const colunas = tabela === "historico" ? colunasHistorico(historico) : [...COLUNAS_PRACAS];
  const linhas = [colunas.join(sep)];
  const num = (v: unknown) => (v === undefined ? "" : virgula ? String(v).replace(".", ",") : String(v));
  for (const e of historico) {
    const rec = e as unknown as Record<string, unknown>;
    if (tabela === "historico") linhas.push([e.data, num(e.valor), unidade, ...colunas.slice(3).map((k) => (COLUNAS_NUMERICAS.has(k) || typeof rec[k] === "number" ? num(rec[k]) : String(rec[k] ?? "")))].join(sep));
    else for (const p in e.pracas ?? {}) linhas.push([e.data, p, num(e.pracas![p]), unidade].join(sep));
  }
  return excel ? `\ufeff${linhas.join("\r\n")}\r\n` : `${linhas.join("\n")}\n`;
}

const mensagens = (ps: Problema[]) => ps.map((p) => `${p.ponteiro}: ${p.mensagem}`);

describe("checarRenderizado", () => {
  it("takes the files as rendered, quoted praças and Excel's decimal commas included", () => {
    for (const h of [nacional, estadual]) {
      for (const f of arquivos(h)) expect(mensagens(checarRenderizado(f.text, h, f.tabela, f.excel, "@")), f.nome).toEqual([]);
    }
    expect(arquivos(estadual)[2]!.text).toContain('2026-09-09,"Campo Grande, MS",330,@\n2026-09-09,"Praça ""Nova""",332.25,@\n');
  });

  it("reports a line differing only in its last field, in the words of the line-by-line check", () => {
    const [csv] = arquivos(nacional);
    const text = csv!.text.replace("2026-09-08,347.6,@,64\n", "2026-09-08,347.6,@,65\n");
    expect(mensagens(checarRenderizado(text, nacional, "historico", false, "@"))).toEqual(['linha 3: "2026-09-08,347.6,@,65" não é a linha que o histórico do JSON dá ("2026-09-08,347.6,@,64")']);
  });

  it("reports a quoted praça's value that is not the JSON's, and a praça quoted where it needs no quotes is still read as its name", () => {
    const p = arquivos(estadual)[2]!;
    const errado = p.text.replace('"Campo Grande, MS",330,', '"Campo Grande, MS",330.5,');
    expect(mensagens(checarRenderizado(errado, estadual, "pracas", false, "@"))).toEqual([
      'linha 6: "2026-09-09,\\"Campo Grande, MS\\",330.5,@" não é a linha que o histórico do JSON dá ("2026-09-09,Campo Grande, MS,330,@")',
    ]);
    const aspas = p.text.replace("2026-09-10,Dourados,", '2026-09-10,"Dourados",');
    expect(checarRenderizado(aspas, estadual, "pracas", false, "@")).toEqual([]);
  });

  it("reports a missing line and an extra line", () => {
    const [csv] = arquivos(nacional);
    const falta = csv!.text.replace("2026-09-09,347.75,@,64.25\n", "");
    expect(mensagens(checarRenderizado(falta, nacional, "historico", false, "@"))).toEqual([": tem 2 linhas de dados, mas o histórico do JSON dá 3"]);
    const sobra = `${csv!.text}2026-09-10,348,@,64.3\n`;
    expect(mensagens(checarRenderizado(sobra, nacional, "historico", false, "@"))).toEqual([": tem 4 linhas de dados, mas o histórico do JSON dá 3"]);
  });

  it("reports CRLF in a plain CSV, once for the file and on every line it breaks", () => {
    const [csv] = arquivos(nacional);
    const crlf = csv!.text.replace("2026-09-08,347.6,@,64\n", "2026-09-08,347.6,@,64\r\n");
    expect(mensagens(checarRenderizado(crlf, nacional, "historico", false, "@"))).toEqual([
      ": quebras de linha CRLF/CR: use apenas LF (\\n)",
      'linha 3: "2026-09-08,347.6,@,64\\r" não é a linha que o histórico do JSON dá ("2026-09-08,347.6,@,64")',
    ]);
  });

  it("reports an Excel variant with a dot decimal, in a value or in another numeric column", () => {
    const excel = arquivos(estadual)[1]!;
    expect(excel.text).toContain("2026-09-08;330;@;333,5;-2,1;alta\r\n");
    const ponto = excel.text.replace("2026-09-08;330;@;333,5;", "2026-09-08;330;@;333.5;");
    expect(mensagens(checarRenderizado(ponto, estadual, "historico", true, "@"))).toEqual(['linha 2: "2026-09-08;330;@;333.5;-2,1;alta" não é a linha que o histórico do JSON dá ("2026-09-08;330;@;333,5;-2,1;alta")']);
    const pracas = arquivos(estadual)[3]!;
    const valor = pracas.text.replace("2026-09-08;C. Grande;329,5;", "2026-09-08;C. Grande;329.5;");
    expect(mensagens(checarRenderizado(valor, estadual, "pracas", true, "@"))).toEqual(['linha 3: "2026-09-08;C. Grande;329.5;@" não é a linha que o histórico do JSON dá ("2026-09-08;C. Grande;329,5;@")']);
  });

  it("reports an empty column that should hold a value, and a value where the JSON has none", () => {
    const [csv] = arquivos(estadual);
    expect(csv!.text).toContain("2026-09-09,331.5,@,,0,\n");
    const vazio = csv!.text.replace("2026-09-08,330,@,333.5,", "2026-09-08,330,@,,");
    expect(mensagens(checarRenderizado(vazio, estadual, "historico", false, "@"))).toEqual(['linha 2: "2026-09-08,330,@,,-2.1,alta" não é a linha que o histórico do JSON dá ("2026-09-08,330,@,333.5,-2.1,alta")']);
    const cheio = csv!.text.replace("2026-09-09,331.5,@,,0,\n", "2026-09-09,331.5,@,,0,alta\n");
    expect(mensagens(checarRenderizado(cheio, estadual, "historico", false, "@"))).toEqual(['linha 3: "2026-09-09,331.5,@,,0,alta" não é a linha que o histórico do JSON dá ("2026-09-09,331.5,@,,0,")']);
  });

  it("reports a value rounded to cents where the JSON has more digits, and a cent spelled with a trailing zero", () => {
    const h: HistoricoEntry[] = [{ data: "2026-09-08", valor: 0.1 + 0.2 }, { data: "2026-09-09", valor: 330.5 }];
    expect(historicoCsvs(h, "@").csv).toBe("data,valor,unidade\n2026-09-08,0.30000000000000004,@\n2026-09-09,330.5,@\n");
    expect(mensagens(checarRenderizado("data,valor,unidade\n2026-09-08,0.3,@\n2026-09-09,330.50,@\n", h, "historico", false, "@"))).toEqual([
      'linha 2: "2026-09-08,0.3,@" não é a linha que o histórico do JSON dá ("2026-09-08,0.30000000000000004,@")',
      'linha 3: "2026-09-09,330.50,@" não é a linha que o histórico do JSON dá ("2026-09-09,330.5,@")',
    ]);
  });

  it("says what the line-by-line check says, for histories no renderer makes and for many damaged files", () => {
    const estranho: HistoricoEntry[] = [
      { data: "2026-09-08", valor: 1e-7, valor_30d: 12345678.9, tendencia: "alta" },
      { data: "2026-09-09,x", valor: 2, tendencia: "baixa" },
      { data: "2026-09-10", valor: "3.5" as unknown as number, valor_30d: "4.5" as unknown as number },
      { data: "2026-09-11", valor: 4, tendencia: "com;ponto e vírgula" as "alta" },
      { data: '2026-09-12"', valor: -0.5, pracas: { "Linha\nquebrada": 1, "": 2 } },
      { data: "2026-09-12", valor: 0.05, valor_30d: -0, base_sp: 0.29, pracas: { a: 0, b: -0, c: 0.29, d: 100, e: 1e21, f: 123456789012.34, g: 1e13 + 0.5, h: 9007199254740.99, i: -330.05, j: 0.1 + 0.2, k: 1.005 } },
      { data: "2026-09-13", valor: 5, valor_30d: "5.5" as unknown as number },
      { data: "2026-09-14", valor: 6, valor_30d: 6.5, tendencia: 1.5 as unknown as "alta" },
    ];
    const sorteio = aleatorio(15);
    const int = (n: number) => Math.floor(sorteio() * n);
    const danos: Array<(s: string) => string> = [
      (s) => {
        const i = int(s.length);
        return s.slice(0, i) + s.slice(i + 1);
      },
      (s) => {
        const i = int(s.length);
        return s.slice(0, i) + ',;."\r\n0@'[int(9)] + s.slice(i);
      },
      (s) => {
        const i = int(s.length);
        return s.slice(0, i) + ',;."\r\n0@'[int(9)] + s.slice(i + 1);
      },
      (s) => {
        const l = s.split("\n");
        const i = int(l.length);
        l.splice(i, 0, l[int(l.length)]!);
        return l.join("\n");
      },
      (s) => {
        const l = s.split("\n");
        l.splice(int(l.length), 1);
        return l.join("\n");
      },
      (s) => s.replace(/\./, ","),
      (s) => s.replace(/[,;]/g, (c) => (sorteio() < 0.1 ? (c === "," ? ";" : ",") : c)),
    ];
    let casos = 0;
    let comProblemas = 0;
    for (const h of [nacional, estadual, estranho]) {
      for (const unidade of ["@", "R$/sc;60kg", '"kg"']) {
        for (const f of arquivos(h, unidade)) {
          const texts = [f.text, f.text.replaceAll("\n", "\r\n"), f.text.replace("\ufeff", ""), ingenuo(h, f.tabela, f.excel, unidade, false), ingenuo(h, f.tabela, f.excel, unidade, true)];
          // line breaks that are not the file's own, after the header: a space or a CR before each LF
          const h1 = f.text.indexOf("\n") + 1;
          texts.push(f.text.slice(0, h1) + f.text.slice(h1, -2).replace(/\r?\n/g, " \n") + f.text.slice(-2));
          texts.push(f.text.slice(0, h1) + f.text.slice(h1, -2).replace(/\r?\n/g, "\r\n") + f.text.slice(-2));
          for (let k = 0; k < 60; k++) {
            let t = f.text;
            for (let d = 1 + int(3); d > 0; d--) t = danos[int(danos.length)]!(t);
            texts.push(t);
          }
          for (const t of texts) {
            for (const excel of [f.excel, !f.excel]) {
              const esperado = referencia(t, h, f.tabela, excel, unidade);
              expect(checarRenderizado(t, h, f.tabela, excel, unidade), `${f.nome} ${JSON.stringify(t)}`).toEqual(esperado);
              casos++;
              if (esperado.length > 0) comProblemas++;
            }
          }
        }
      }
    }
    // the damage must have been caught often, or the comparison above proves little
    expect(comProblemas).toBeGreaterThan(casos / 2);
  });
});
