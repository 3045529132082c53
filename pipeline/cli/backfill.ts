import { writeFile } from "node:fs/promises";
import { parseAceite, type RevisaoAceita } from "../check/revisions.ts";
import { loadConfig } from "../config.ts";
import { runClock } from "../domain/dates.ts";
import { withDataLock } from "../publish/lock.ts";
import { runBackfill } from "../run/backfill.ts";
import { SERIES_CEPEA, type SerieCepea } from "../sources/cepea-series.ts";
import { cliOptions, falhou, SEM_ESPERA, USAGE_SEM_ESPERA } from "./args.ts";

const PAGINAS = [...new Set(SERIES_CEPEA.map((s) => `cepea/${s.pagina}`))];

const USAGE = `uso: npm run backfill -- --pagina FONTE/PAGINA [--serie SERIE] [--arquivo ARQUIVO]
                          [--aceitar-revisao SERIE@AAAA-MM-DD[:CAMPO]=VALOR ...] [--mensagem ARQUIVO] [--sem-espera]
  importa o histórico inteiro de uma série, com os mesmos portões e a mesma mesclagem do update
  --pagina FONTE/PAGINA  a página do indicador: ${PAGINAS.join(", ")}
  --serie SERIE          a série, quando a página tem mais de uma (ex.: cepea/soja: soja ou soja/PR)
  --arquivo ARQUIVO      lê a série de um arquivo (.xls, .xlsx ou .csv com ";", números brasileiros
                         e datas dd/mm/aaaa); sem ele, baixa ao vivo
                         /br/indicador/series/{pagina}.aspx?id={id} (COTACAO_CEPEA_URL muda o site)
  --aceitar-revisao SERIE@AAAA-MM-DD[:CAMPO]=VALOR
                         aceita uma revisão além do limite que uma execução anterior reteve
                         (copie de status.json, campo "aceitar"); repita para cada valor
  --mensagem ARQUIVO     grava em ARQUIVO a mensagem de commit do que foi importado
                         (git commit -F ARQUIVO); ela também é impressa no fim
${USAGE_SEM_ESPERA}
  códigos de saída: 0 importado (ou nada novo), 1 recusado ou retido, 2 uso incorreto`;

function usageError(msg: string): never {
  console.error(`${msg}\n${USAGE}`);
  process.exit(2);
}

const args = cliOptions(
  {
    pagina: { type: "string" },
    serie: { type: "string" },
    arquivo: { type: "string" },
    "aceitar-revisao": { type: "string", multiple: true },
    mensagem: { type: "string" },
    ...SEM_ESPERA,
  },
  USAGE,
);

if (!args.pagina) usageError("falta --pagina");
const m = /^([a-z0-9-]+)\/([a-z0-9-]+)$/.exec(args.pagina);
if (!m) usageError(`--pagina inválida: "${args.pagina}" (use FONTE/PAGINA, ex.: cepea/boi-gordo)`);
if (m[1] !== "cepea") usageError(`só o CEPEA oferece a série histórica para download; páginas: ${PAGINAS.join(", ")}`);
const daPagina = SERIES_CEPEA.filter((s) => s.pagina === m[2]);
if (daPagina.length === 0) usageError(`página desconhecida: ${args.pagina}; páginas com série histórica: ${PAGINAS.join(", ")}`);
let serie: SerieCepea;
if (args.serie) {
  const s = daPagina.find((x) => x.serie === args.serie);
  if (!s) usageError(`a página ${args.pagina} não tem a série ${args.serie}; tem ${daPagina.map((x) => x.serie).join(", ")}`);
  serie = s;
} else if (daPagina.length > 1) {
  usageError(`a página ${args.pagina} tem ${daPagina.length} séries (${daPagina.map((x) => x.serie).join(", ")}): escolha uma com --serie`);
} else {
  serie = daPagina[0]!;
}

let aceitar: RevisaoAceita[];
try {
  aceitar = (args["aceitar-revisao"] ?? []).map(parseAceite);
} catch (err) {
  usageError((err as Error).message);
}

try {
  const config = loadConfig();
  const log = (line: string) => console.log(line);
  const report = await withDataLock(config.publicDir, { esperar: !args["sem-espera"], log, comando: "npm run backfill" }, () =>
    runBackfill({
      config,
      now: runClock(),
      serie,
      origem: args.arquivo ? { tipo: "arquivo", caminho: args.arquivo } : { tipo: "ao_vivo" },
      aceitar,
      log,
    }),
  );
  if (report.mensagem) {
    console.log(`\nmensagem de commit${args.mensagem ? ` (gravada em ${args.mensagem}: git commit -F ${args.mensagem})` : ""}:\n`);
    console.log(report.mensagem);
    if (args.mensagem) await writeFile(args.mensagem, report.mensagem);
  }
  process.exitCode = report.exitCode;
} catch (err) {
  falhou(err);
}
