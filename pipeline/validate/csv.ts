/**
 * The CSV histories (api/v1/historico/{produto}.csv, .../{produto}/{UF}.csv): header starting
 * `data,valor` (the renderer writes `data,valor,unidade,...`; the comparison with the series'
 * JSON holds it to exactly that), one row per line (LF), ISO dates oldest first, '.' decimals
 * with at most two places, the same number of fields on every line. The praças, long and Excel
 * files are checked in ./dados.ts.
 */
import { isDataValida } from "../contract/data.ts";
import { mostrar, type Problema } from "../contract/messages.ts";

const NUMERIC_EXTRAS = new Set(["base_sp", "funrural_avista", "funrural_30d", "senar_avista", "senar_30d"]);
const DECIMAL = /^-?\d+(\.\d{1,2})?$/;

export interface CsvLinha {
  data: string;
  valor: string;
  /** 1-based line number in the file */
  linha: number;
}

export interface CsvHistorico {
  problemas: Problema[];
  linhas: CsvLinha[];
}


/** Calendar check by arithmetic (the contract's `date` format): this runs once per CSV line of every history. */
export const isRealDate: (s: string) => boolean = isDataValida;

/** RFC 4180 fields of one line (no line breaks inside fields: one row per line). */
export function camposCsv(line: string, sep = ","): string[] | null {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let v = "";
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += line[i++];
      }
      out.push(v);
      if (i === line.length) return out;
      if (line[i] !== sep) return null;
      i++;
    } else {
      const j = line.indexOf(sep, i);
      const v = j < 0 ? line.slice(i) : line.slice(i, j);
      if (v.includes('"')) return null;
      out.push(v);
      if (j < 0) return out;
      i = j + 1;
    }
  }
}

const at = (n: number) => `linha ${n}`;

export function checarCsvHistorico(text: string): CsvHistorico {
  const problemas: Problema[] = [];
  const linhas: CsvLinha[] = [];
  if (text.length === 0) return { problemas: [{ ponteiro: "", mensagem: "arquivo vazio" }], linhas };
  if (text.charCodeAt(0) === 0xfeff) problemas.push({ ponteiro: at(1), mensagem: "começa com BOM (use UTF-8 sem BOM)" });
  if (text.includes("\r")) problemas.push({ ponteiro: "", mensagem: "quebras de linha CRLF/CR: use apenas LF (\\n)" });
  if (!text.endsWith("\n")) problemas.push({ ponteiro: "", mensagem: "a última linha deve terminar com \\n" });

  const lines = text.replace(/^\ufeff/, "").replace(/\r/g, "").split("\n");
  if (lines[lines.length - 1] === "") lines.pop();

  const header = camposCsv(lines[0] ?? "");
  if (!header || header[0] !== "data" || header[1] !== "valor") {
    problemas.push({ ponteiro: at(1), mensagem: `cabeçalho deve começar com "data,valor" (recebido ${mostrar(lines[0] ?? "")})` });
    return { problemas, linhas };
  }
  // valor_usd, valor_30d, Scot's Funrural/Senar prices, the basis (%) and the praça columns
  // ("praca:Barretos") are numbers too; tendencia is a word
  const numeric = header.map((h) => h === "valor" || h.startsWith("valor_") || h.startsWith("praca:") || NUMERIC_EXTRAS.has(h));
  if (lines.length < 2) problemas.push({ ponteiro: "", mensagem: "sem nenhuma linha de dados" });

  let prev: string | null = null;
  for (let k = 1; k < lines.length; k++) {
    const n = k + 1;
    const line = lines[k]!;
    if (line === "") {
      problemas.push({ ponteiro: at(n), mensagem: "linha em branco" });
      continue;
    }
    const f = camposCsv(line);
    if (!f) {
      problemas.push({ ponteiro: at(n), mensagem: `aspas malformadas (recebido ${mostrar(line)})` });
      continue;
    }
    if (f.length !== header.length) {
      problemas.push({ ponteiro: at(n), mensagem: `deve ter ${header.length} campos como o cabeçalho (recebido ${f.length}: ${mostrar(line)})` });
      continue;
    }
    const [data = "", valor = ""] = f;
    if (!isRealDate(data)) {
      problemas.push({ ponteiro: at(n), mensagem: `data deve ser AAAA-MM-DD válida (recebido ${mostrar(data)})` });
    } else {
      if (prev !== null && data <= prev) {
        problemas.push({
          ponteiro: at(n),
          mensagem: data === prev ? `data repetida "${data}" (um dia por linha)` : `fora de ordem: "${data}" vem depois de "${prev}" (do mais antigo ao mais recente)`,
        });
      }
      if (prev === null || data > prev) prev = data;
    }
    if (!DECIMAL.test(valor) || Number(valor) <= 0) {
      problemas.push({ ponteiro: at(n), mensagem: `valor deve ser número positivo com ponto decimal e até duas casas (recebido ${mostrar(valor)})` });
    }
    for (let c = 2; c < f.length; c++) {
      const v = f[c]!;
      if (numeric[c] && v !== "" && !DECIMAL.test(v)) {
        problemas.push({ ponteiro: at(n), mensagem: `coluna "${header[c]}" deve ser número com ponto decimal e até duas casas, ou vazia (recebido ${mostrar(v)})` });
      }
    }
    linhas.push({ data, valor, linha: n });
  }
  return { problemas, linhas };
}
