import { addDays } from "date-fns/addDays";
import { format } from "date-fns/format";
import { isWeekend } from "date-fns/isWeekend";
import { loadConfig } from "../../pipeline/config.ts";
import { isoBrasilia } from "../../pipeline/domain/dates.ts";
import { PRODUTO_INFO } from "../../pipeline/domain/products.ts";
import { publishFiles } from "../../pipeline/publish/write.ts";
import { renderSerie } from "../../pipeline/render/serie.ts";
import { renderSiteFiles } from "../../pipeline/site/assemble.ts";
import type { HistoricoEntry, SerieFile } from "../../pipeline/domain/publicados.ts";
import { allSeries, getSource } from "../../pipeline/sources/index.ts";
import { nextStatus } from "../../pipeline/run/status.ts";
import type { UF } from "../../pipeline/domain/ufs.ts";

/** Business days (Mon–Fri) from `start`, `years` long. */
export function businessDays(start: Date, years: number): string[] {
  const out: string[] = [];
  const end = addDays(start, Math.round(365.25 * years));
  for (let d = start; d < end; d = addDays(d, 1)) if (!isWeekend(d)) out.push(format(d, "yyyy-MM-dd"));
  return out;
}

/** Extra praças per UF, as in Scot's table (MS has three, MG four...). */
const PRACAS: Partial<Record<UF, string[]>> = {
  SP: ["Barretos", "Araçatuba"], MG: ["Triângulo", "B.Horizonte", "Norte", "Sul"], GO: ["Goiânia", "Reg. Sul"],
  MS: ["Dourados", "C. Grande", "Três Lagoas"], RS: ["Oeste", "Pelotas"], BA: ["Sul", "Oeste"],
  MT: ["Norte", "Sudoeste", "Cuiabá", "Sudeste"], PA: ["Marabá", "Redenção", "Paragominas"], TO: ["Sul", "Norte"],
};

/**
 * A deterministic random walk in centavos for every series over `days`: the shape of 30 years
 * of real data (one line per day, praças for the state series) without its values.
 */
export function syntheticSeries(days: readonly string[], now: Date): Map<string, SerieFile> {
  const series = new Map<string, SerieFile>();
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (const def of allSeries()) {
    const [lo, hi] = PRODUTO_INFO[def.produto].faixa[def.unidade]!;
    let cents = Math.round(((lo + hi) / 4) * 100);
    const pracaNames = def.praca ? [def.praca] : def.uf ? PRACAS[def.uf] ?? [def.pracaReferencia ?? def.uf] : [];
    const historico: HistoricoEntry[] = days.map((data) => {
      cents = Math.max(lo * 100 + 100, Math.min(hi * 100 - 100, cents + Math.round((rnd() - 0.5) * cents * 0.02)));
      const e: HistoricoEntry = { data, valor: cents / 100 };
      if (def.fonte === "cepea") e.valor_usd = Math.round(cents / 5.2) / 100;
      else e.valor_30d = (cents + 400) / 100;
      if (def.fonte === "scot" && def.uf) e.pracas = Object.fromEntries(pracaNames.map((p, i) => [p, (cents - i * 50) / 100]));
      return e;
    });
    const source = getSource(def.fonte);
    const last = historico[historico.length - 1]!;
    const praca = def.uf ? (def.praca ?? pracaNames[0] ?? def.uf) : null;
    series.set(
      def.id,
      renderSerie({
        def,
        source,
        historico,
        praca,
        pracas: def.uf ? pracaNames.map((p) => ({ praca: p, valor: last.pracas?.[p] ?? last.valor, unidade: def.unidade })) : null,
        proveniencia: {
          fonte: source.id, nome: source.nome, url: source.site, coletado_em: isoBrasilia(now), via: null, via_url: null,
          licenca: source.termos.licenca, citacao: source.termos.citacao, termos: source.termos.texto,
        },
        atualizado: isoBrasilia(now),
      }),
    );
  }
  return series;
}

/** Writes a whole synthetic site into `publicDir`; returns the number of daily points. */
export async function writeSyntheticSite(publicDir: string, years: number, now: Date): Promise<number> {
  const days = businessDays(new Date(Date.UTC(1996, 0, 2)), years);
  const series = syntheticSeries(days, now);
  const config = loadConfig({ publicDir, env: {} });
  const status = nextStatus(null, [], series, config, now, {});
  const r = await publishFiles(publicDir, renderSiteFiles(series, status, config));
  if (r.erros.length > 0) throw new Error(`histórico sintético inválido:\n${r.erros.slice(0, 10).join("\n")}`);
  let points = 0;
  for (const f of series.values()) points += f.historico.length;
  return points;
}
