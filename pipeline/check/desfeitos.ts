import type { Config } from "../config.ts";
import { formatDateBR } from "../domain/dates.ts";
import { formatDecimalBR } from "../domain/money.ts";
import type { HistoricoEntry, PracaQuote } from "../domain/publicados.ts";
import { DESFEITOS_FILE, temValor, type Desfeito } from "../history/desfeitos.ts";

/**
 * A day of a series a page (or a backfill's file) brought with exactly a value `npm run desfazer`
 * took off the site (history/desfeitos.ts), and so kept out: that day of that series stays as it
 * is published (the restored value, or no day) while the rest of the page is merged. A page is
 * not refused whole for it: CEPEA's pages show 15 business days, Notícias Agrícolas' 10, Scot's
 * one table feeds 44 series, and a source that never corrects the day would otherwise stop every
 * series of the page for weeks. A different value for the day is the source's correction and
 * passes.
 */
export interface ValorPulado {
  /** the series whose day was kept out */
  serie: string;
  data: string;
  /**
   * the entry of desfeitos.json the page brought back: of this series, or of the series it
   * shares its reference praça with (a Scot national series and its UF's series)
   */
  desfeito: Desfeito;
}

/**
 * The entry of desfeitos.json that one day of one series, as a page gives it (with that day's
 * praça quotes, when the page has them), brings back; undefined when none.
 */
export function desfeitoNoDia(serie: string, e: HistoricoEntry, desfeitos: readonly Desfeito[], quotes?: readonly PracaQuote[] | null): Desfeito | undefined {
  return desfeitos.find((d) => d.serie === serie && d.data === e.data && temValor(e, quotes, d));
}

/** The notice (pt-BR) for a day kept out: series, day, value, the undo's commit, and how to let the value in. */
export function avisoPulado(p: ValorPulado, de: "da página" | "do arquivo" = "da página"): string {
  const d = p.desfeito;
  const curto = d.commit.slice(0, 12);
  const valor = formatDecimalBR(d.valor);
  const onde = d.campo === "valor" ? "" : ` (${d.campo})`;
  const traz =
    p.serie === d.serie
      ? `${p.serie} em ${formatDateBR(p.data)}: a fonte ainda traz ${valor}${onde}`
      : `${p.serie} em ${formatDateBR(p.data)}: pulado com ${d.serie}, que segue a mesma praça de referência e em que a fonte ainda traz ${valor}${onde} nesse dia`;
  return (
    `${traz}, o valor que npm run desfazer -- ${curto} tirou do site como errado (${DESFEITOS_FILE}); ` +
    `esse dia de ${p.serie} foi pulado e fica como está publicado até a fonte corrigi-lo (um valor diferente entra normalmente); o resto ${de} foi mesclado. ` +
    `Se ${valor} estava certo, apague de ${DESFEITOS_FILE}, na raiz do repositório, a entrada {"serie": "${d.serie}", "data": "${d.data}", "campo": "${d.campo}", ...} ` +
    `e faça commit de ${DESFEITOS_FILE}; a próxima atualização (ou importação) o publica`
  );
}

/**
 * The days each read of a page kept out, for status.json. The update builds a page's outcome
 * itself (run/update.ts) and nextStatus (run/status.ts) receives only the outcomes: the page's
 * last assemble leaves here what it kept out, under the run's configuration (one object for a
 * whole run), and nextStatus reads it for each page that was merged. A page is assembled each time
 * it is read, before its outcome, so what is here for a merged page is always this read's.
 */
const porExecucao = new WeakMap<Config, Map<string, readonly ValorPulado[]>>();

export function registrarPulados(config: Config, fonte: string, pagina: string, pulados: readonly ValorPulado[]): void {
  const m = porExecucao.get(config) ?? porExecucao.set(config, new Map()).get(config)!;
  m.set(`${fonte}/${pagina}`, pulados);
}

/** What the last read of the page under this configuration kept out; empty when nothing (or never read). */
export function puladosDaLeitura(config: Config, fonte: string, pagina: string): readonly ValorPulado[] {
  return porExecucao.get(config)?.get(`${fonte}/${pagina}`) ?? [];
}
